"""What the guard shows people, in a real browser, in both languages: the one-time host link's page, the login
form when the whole table stopped checking PINs, and the host's banner when the database left its path."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.table import hostlink
from companion.web.pin_guard import PinGuard
from tests.table.helpers import host_call
from tests.web.pages.browser import serve, shot
from tests.web.pages.conftest import PIN, start_table

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def texts(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_host_link_page_logs_in_once_and_the_host_is_told_when_the_database_goes(
        browser: Any, tmp_path: Path, tiny_game: None, lang: str) -> None:
    runtime = start_table(tmp_path / "data")
    try:
        locked = PinGuard(burst=0, per_hour=1e-9)  # the whole table stopped checking PINs (someone guessed)
        with serve(runtime.app(SSE_HEARTBEAT_S=0.5, PIN_GUARD=locked)) as url:
            ctx = browser.new_context(locale="ko-KR" if lang == "ko" else "en-US", viewport=PHONE)
            page = ctx.new_page()
            page.goto(f"{url}/host")
            page.fill("#pin", PIN)
            page.click("#login-form button[type=submit]")
            page.wait_for_selector("#host-error:not([hidden])")
            said = page.inner_text("#host-error")
            assert "companion host-link" in said, said
            assert ("이 테이블에서 PIN을" in said) is (lang == "ko") and ("at this table" in said) is (lang == "en")
            shot(page, f"host-pin-table-locked-phone-{lang}")

            token = hostlink.issue(runtime.db_path.parent)
            page.goto(f"{url}/host/link/{token}")
            page.wait_for_function("() => document.documentElement.lang !== '' && "
                                   "!document.querySelector('#use-link').textContent.includes('{')")
            shown = texts(page)
            assert ("일회용 진행자 링크" in shown) is (lang == "ko") and ("One-time host link" in shown) is (lang == "en")
            shot(page, f"host-link-phone-{lang}")
            page.click("#use-link")
            page.wait_for_selector("#console:not([hidden])")
            assert page.url.endswith("/host")

            again = ctx.new_page()
            again.goto(f"{url}/host/link/{token}")
            again.click("#use-link")
            again.wait_for_selector(".error")
            assert ("이미 사용했거나" in texts(again)) is (lang == "ko"), texts(again)
            shot(again, f"host-link-used-phone-{lang}")

            page.set_viewport_size(TV)
            shutil.rmtree(runtime.db_path.parent)
            reply = host_call(runtime.loop, "submit", seat=0, action={"type": "vote", "seat": 0, "vote": "ja"},
                              source="test")
            assert getattr(reply, "code", None) == "journal_gone"
            page.wait_for_selector("#journal-warning:not([hidden])", timeout=15000)
            banner = page.inner_text("#journal-warning")
            assert ("데이터베이스" in banner) is (lang == "ko") and "table.db" in banner, banner
            shot(page, f"host-journal-gone-tv-{lang}")
            ctx.close()
    finally:
        runtime.stop()
