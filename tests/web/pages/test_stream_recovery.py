"""A page refused a live-update stream (503 stream_limit: every slot taken) opens a new one itself, with backoff,
and catches up once a slot frees: the browser alone would have closed its EventSource for good."""

from __future__ import annotations

import http.client
import time
from typing import Any

import pytest

from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import serve, shot

pytestmark = pytest.mark.browser


def test_a_refused_page_recovers_by_itself_once_a_slot_frees(browser: Any, runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital")
    runtime.loop.wait_idle()
    with serve(runtime.app(SSE_MAX_STREAMS=1, SSE_HEARTBEAT_S=0.3)) as url:
        port = int(url.rsplit(":", 1)[1])
        hog = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        hog.request("GET", "/api/events")
        held = hog.getresponse()
        assert held.status == 200  # the one slot is taken
        ctx = browser.new_context(locale="en-US", viewport={"width": 1920, "height": 1080})
        refused: list[int] = []
        ctx.on("response", lambda r: refused.append(r.status) if "/api/events" in r.url and r.status == 503 else None)
        page = ctx.new_page()
        page.goto(url + "/")
        page.wait_for_function("() => (document.body.dataset.version || '') !== ''")  # the first state, fetched
        deadline = time.monotonic() + 10
        while len(refused) < 2 and time.monotonic() < deadline:  # refused, then refused again after a backoff
            page.wait_for_timeout(100)
        assert len(refused) >= 2, refused
        assert page.eval_on_selector("#status", "el => el.classList.contains('down')")

        assert isinstance(host_call(runtime.loop, "submit", seat=0, action={"type": "vote", "seat": 0, "vote": "ja"},
                                    source="test"), dict)
        runtime.loop.wait_idle()
        session = runtime.loop.session
        want = f"{session.game_id}.{len(session.actions)}"
        assert page.evaluate("() => document.body.dataset.version") != want  # no stream: the page cannot know
        held.close()
        hog.close()
        freed = time.monotonic()
        page.wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=40000)
        print(f"\nthe page caught up {time.monotonic() - freed:.1f} s after the slot freed "
              f"({len(refused)} refusals before)")
        page.wait_for_function("() => document.querySelector('#status').classList.contains('live')")
        shot(page, "stream-recovered-tv")
        ctx.close()
