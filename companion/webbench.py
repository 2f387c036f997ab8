"""Tap -> table page DOM latency: ballot taps on mock readers during Secret Hitler votes, seen by 10 table
pages in a real browser (Debian's Chromium via Playwright; the `test` extra), plus the table page's weight."""

from __future__ import annotations

import random
import statistics
import threading
import time
from dataclasses import replace
from typing import Any

from companion.config import PollingConfig, demo_config
from companion.table.bench_tap import enroll_ballots, percentile, voters_or_advance
from companion.table.runtime import Runtime

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
WATCH = """() => {
  window.__renders = [];
  new MutationObserver(() => window.__renders.push({v: document.body.dataset.version,
    t: performance.timeOrigin + performance.now()})).observe(document.body, {attributes: true,
    attributeFilter: ["data-version"]});
}"""


def _actions(version: str) -> tuple[str, int]:
    game_id, _, count = version.rpartition(".")
    return game_id, int(count or 0)


# found renders are forgotten in the same call: one round trip per page and tap when the page is already done
FIND = """([g, n]) => {
  const hit = window.__renders.find(r => r.v.startsWith(g + '.') && +r.v.split('.')[1] > n);
  if (!hit) return null;
  window.__renders = [];
  return hit.t;
}"""


def _seen(tab: Any, game_id: str, before: int, timeout_s: float = 10.0) -> float:
    """When this page's DOM first showed a game state after `before` actions (ms since the epoch)."""
    deadline = time.monotonic() + timeout_s
    while True:
        seen = tab.evaluate(FIND, [game_id, before])
        if seen is not None:
            return float(seen)
        if time.monotonic() > deadline:
            raise RuntimeError("a table page did not show the tap")
        time.sleep(0.01)


def page_weight(browser: Any, url: str) -> dict[str, Any]:
    """Bytes the table page loads (HTML, CSS, JS, texts, first state), without the event stream."""
    ctx = browser.new_context()
    page = ctx.new_page()
    sizes: dict[str, int] = {}

    def count(response: Any) -> None:
        if "/api/events" not in response.url:
            try:
                sizes[response.url] = len(response.body())
            except Exception:  # a response without a body (redirect) weighs nothing
                sizes[response.url] = 0

    page.on("response", count)
    page.goto(url, wait_until="networkidle")
    ctx.close()
    return {"kb": round(sum(sizes.values()) / 1024, 1), "requests": len(sizes)}


def tap_to_dom(taps: int, data_dir: str, pages: int = 10, seed: int = 1) -> dict[str, Any]:
    """p50/p99/max (ms) from a mock ballot tap to the table page's DOM showing it, on every one of `pages`."""
    from playwright.sync_api import sync_playwright
    from waitress.server import create_server

    from companion.hal.mock import MockHardware

    cfg = replace(demo_config(), data_dir=data_dir, polling=PollingConfig(interval_ms=10, removal_ms=20))
    runtime = Runtime(cfg, rng=random.Random(seed)).start()
    hw, loop = runtime.hardware, runtime.loop
    assert isinstance(hw, MockHardware)
    server = create_server(runtime.app(), host="127.0.0.1", port=0, threads=max(32, pages + 8))
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}/"
    ballots = enroll_ballots(loop, "D")
    rng = random.Random(seed)
    samples: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            loop.call("new_game", game="secret_hitler", seats=7, components="digital")
            weight = page_weight(browser, url)
            tabs = []
            for _ in range(pages):
                tab = browser.new_context().new_page()
                tab.goto(url)
                tab.wait_for_function("() => (document.body.dataset.version || '') !== ''")
                tab.evaluate(WATCH)
                tabs.append(tab)
            while len(samples) < taps * pages:
                voters = voters_or_advance(loop, rng)
                for seat in voters:
                    game_id, before = str(loop.session.game_id), len(loop.session.actions)
                    vote = "nein" if rng.random() < 0.6 else "ja"
                    t0 = time.time() * 1000
                    hw.place(f"r{seat}", ballots[(seat, vote)], wait=False)
                    loop.wait_idle()
                    # polled from here, not in the pages (page-side polling would load the CPU); the render time
                    # is the page's own clock, so the polling only has to be cheap, not prompt
                    for tab in tabs:
                        samples.append(_seen(tab, game_id, before) - t0)
                for seat in voters:
                    hw.reader(f"r{seat}").uid = None
                for seat in voters:
                    hw.remove(f"r{seat}")
                loop.wait_idle()
            browser.close()
    finally:
        server.close()
        runtime.stop()
    return {"tap_to_dom_ms": {"p50": round(statistics.median(samples), 2), "p99": round(percentile(samples, 0.99), 2),
                              "max": round(max(samples), 2), "taps": len(samples) // pages, "pages": pages},
            "table_page_kb": weight["kb"], "table_page_requests": weight["requests"]}
