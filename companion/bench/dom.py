"""Tap -> table page DOM latency: ballot taps on mock readers during Secret Hitler votes, seen by 10 table
pages in a real browser (Debian's Chromium via Playwright; the `test` extra), plus the table page's weight."""

from __future__ import annotations

import statistics
import time
from typing import Any

from companion.bench.process import Tap, TableProcess
from companion.bench.tap import percentile

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
WATCH = """() => {
  window.__renders = [];
  new MutationObserver(() => window.__renders.push({v: document.body.dataset.version,
    t: performance.timeOrigin + performance.now()})).observe(document.body, {attributes: true,
    attributeFilter: ["data-version"]});
}"""


FIND = "([g, n]) => (window.__renders.find(r => r.v.startsWith(g + '.') && +r.v.split('.')[1] > n) || {}).t ?? null"
SETTLE_S = 0.1  # taps at a table come seconds apart; this lets every page finish one before the next


def _seen(tab: Any, tap: Tap, timeout_s: float = 10.0) -> float:
    """When this page's DOM first showed the game state after a tap (ms since the epoch)."""
    deadline = time.monotonic() + timeout_s
    while True:
        seen = tab.evaluate(FIND, [tap.game_id, tap.actions_before])
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

    table = TableProcess(data_dir, seed, threads=max(32, pages + 8))
    samples: list[float] = []
    try:
        url = f"http://127.0.0.1:{table.port}/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            weight = page_weight(browser, url)
            tabs = []
            for _ in range(pages):
                tab = browser.new_context().new_page()
                tab.goto(url)
                tab.wait_for_function("() => (document.body.dataset.version || '') !== ''")
                tab.evaluate(WATCH)
                tabs.append(tab)
            done: list[Tap] = []
            while len(done) < taps:
                for seat in table.voters():
                    tap = table.tap(seat)
                    # each page records its renders on its own clock; only the first page is asked, and the
                    # rest are read at the end: asking all ten after every tap cost the two cores about
                    # 30 ms of driver and renderer time per tap, which no real table spends
                    _seen(tabs[0], tap)
                    time.sleep(SETTLE_S)
                    done.append(tap)
                table.clear()
            for tab in tabs:  # every page has long shown every tap: each answer comes at once
                samples += [_seen(tab, tap) - tap.at_ms for tap in done]
            browser.close()
    finally:
        table.stop()
    return {"tap_to_dom_ms": {"p50": round(statistics.median(samples), 2), "p99": round(percentile(samples, 0.99), 2),
                              "max": round(max(samples), 2), "taps": len(samples) // pages, "pages": pages},
            "table_page_kb": weight["kb"], "table_page_requests": weight["requests"]}
