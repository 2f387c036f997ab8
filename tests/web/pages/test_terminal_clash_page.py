"""The host page's terminal panel when a second device claims a terminal's id, in a real browser, both languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.hal.events import TerminalClash
from tests.table.helpers import hw
from tests.web.pages.browser import ARTIFACTS, serve, shot
from tests.web.pages.conftest import start_table
from tests.web.pages.test_browser import host_login

pytestmark = pytest.mark.browser

PORT = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e660583883724a32-if00"
LOOKS = (("ko", {"width": 390, "height": 844}, "phone"), ("en", {"width": 1920, "height": 1080}, "tv"))


def test_a_refused_second_device_is_shown_on_the_terminals_row_until_it_goes(
        browser: Any, tmp_path: Path, tiny_game: None) -> None:
    runtime = start_table(tmp_path / "data")
    try:
        hw(runtime).mock_terminals.connect("T0")
        with serve(runtime.app(SSE_HEARTBEAT_S=0.5)) as url:
            pages = []
            for lang, viewport, _ in LOOKS:
                ctx = browser.new_context(locale="ko-KR" if lang == "ko" else "en-US", viewport=viewport)
                page = ctx.new_page()
                host_login(page, url)
                page.wait_for_selector("#terminal-table tr[data-terminal='T0']")
                pages.append(page)
            runtime.loop.sink(TerminalClash("T0", PORT))
            for page, (lang, _, look) in zip(pages, LOOKS):
                warning = page.wait_for_selector("#terminal-table tr[data-terminal='T0'] .clash", timeout=15000)
                said = warning.inner_text()
                assert "usb-MicroPython_Board_in_FS_mode_e660583883724a32-if00" in said and "T0" in said, said
                assert ("거부했습니다" in said and "T0으로" in said) is (lang == "ko") and ("refused" in said) is (lang == "en"), said
                assert "{" not in said and "clash" not in said
                shot(page, f"host-terminal-clash-{look}-{lang}")
                page.locator("#terminal-table").screenshot(path=str(ARTIFACTS / f"host-terminal-clash-row-{look}-{lang}.png"))
            runtime.loop.sink(TerminalClash("T0", PORT, present=False))
            for page in pages:
                page.wait_for_selector("#terminal-table .clash", state="detached", timeout=15000)
                page.context.close()
    finally:
        runtime.stop()
