"""Tap -> table page DOM latency: ballot taps on mock readers during Secret Hitler votes, seen by 10 table
pages in a real browser (Debian's Chromium via Playwright; the `test` extra), plus the table page's weight."""

from __future__ import annotations

import multiprocessing
import random
import statistics
import threading
import time
from dataclasses import replace
from multiprocessing.connection import Connection
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


def _table(conn: Connection, data_dir: str, seed: int, threads: int) -> None:
    """Child process: the demo table on mock hardware and its waitress server; places ballots when asked.

    The table runs in its own process, as `companion run` does, so the browser driver's Python (Playwright's
    client) does not share the server's interpreter lock; in one process it delayed SSE writes by up to
    250 ms, a cost no real table has."""
    from waitress.server import create_server

    from companion.hal.mock import MockHardware

    cfg = replace(demo_config(), data_dir=data_dir, polling=PollingConfig(interval_ms=10, removal_ms=20))
    runtime = Runtime(cfg, rng=random.Random(seed)).start()
    hw, loop = runtime.hardware, runtime.loop
    assert isinstance(hw, MockHardware)
    server = create_server(runtime.app(), host="127.0.0.1", port=0, threads=threads)
    threading.Thread(target=server.run, daemon=True).start()
    ballots = enroll_ballots(loop, "D")
    rng = random.Random(seed)
    loop.call("new_game", game="secret_hitler", seats=7, components="digital")
    conn.send(server.effective_port)
    tapped: list[int] = []
    try:
        while (ask := conn.recv()) != "stop":
            if ask == "voters":  # advance the game to its next vote; the seats that may vote
                voters: list[int] = []
                while not voters:
                    voters = voters_or_advance(loop, rng)
                conn.send(voters)
            elif ask == "clear":  # the ballots taken off their readers
                for seat in tapped:
                    hw.reader(f"r{seat}").uid = None
                for seat in tapped:
                    hw.remove(f"r{seat}")
                tapped.clear()
                loop.wait_idle()
                conn.send(True)
            else:  # ("tap", seat): a ballot placed; answers (game id, actions before, tap time ms since the epoch)
                seat = ask[1]
                tapped.append(seat)
                session = loop.session
                game_id, before = str(session.game_id), len(session.actions)
                vote = "nein" if rng.random() < 0.6 else "ja"
                t0 = time.time() * 1000
                hw.place(f"r{seat}", ballots[(seat, vote)], wait=False)
                loop.wait_idle()
                conn.send((game_id, before, t0))
    finally:
        server.close()
        runtime.stop()


def tap_to_dom(taps: int, data_dir: str, pages: int = 10, seed: int = 1) -> dict[str, Any]:
    """p50/p99/max (ms) from a mock ballot tap to the table page's DOM showing it, on every one of `pages`."""
    from playwright.sync_api import sync_playwright

    mp = multiprocessing.get_context("spawn")
    conn, child_conn = mp.Pipe()
    table = mp.Process(target=_table, args=(child_conn, data_dir, seed, max(32, pages + 8)), daemon=True)
    table.start()
    samples: list[float] = []
    try:
        if not conn.poll(60):
            raise RuntimeError("the table process did not start")
        url = f"http://127.0.0.1:{conn.recv()}/"
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
            while len(samples) < taps * pages:
                conn.send("voters")
                for seat in conn.recv():
                    conn.send(("tap", seat))
                    game_id, before, t0 = conn.recv()
                    # polled from here, not in the pages (page-side polling would load the CPU); the render time
                    # is the page's own clock, so the polling only has to be cheap, not prompt
                    for tab in tabs:
                        samples.append(_seen(tab, game_id, before) - t0)
                conn.send("clear")
                conn.recv()
            browser.close()
    finally:
        conn.send("stop")
        table.join(10)
        if table.is_alive():
            table.kill()
    return {"tap_to_dom_ms": {"p50": round(statistics.median(samples), 2), "p99": round(percentile(samples, 0.99), 2),
                              "max": round(max(samples), 2), "taps": len(samples) // pages, "pages": pages},
            "table_page_kb": weight["kb"], "table_page_requests": weight["requests"]}
