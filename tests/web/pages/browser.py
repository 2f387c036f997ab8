"""Real-browser plumbing: the app served by waitress on a free loopback port, Debian's Chromium via Playwright."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from companion.web.listener import ServerPlan, close_server, listen

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "web"


@contextmanager
def serve(app: Any, threads: int = 32) -> Iterator[str]:
    """Serve `app` with waitress on 127.0.0.1 (a free port) in a thread, set up as `companion run` sets it up;
    yields the base URL."""
    plan = ServerPlan(threads, int(app.config["SSE_MAX_STREAMS"]))
    server = plan.server(app, listen("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        app.extensions["table"].loop.bus.close_all()  # the streams end before the server's trigger closes
        close_server(server)
        thread.join(timeout=5)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's, never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def shot(page: Any, name: str) -> None:
    """Keep a screenshot of a page under test-artifacts/web/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def csp_errors(page: Any) -> list[str]:
    """Start collecting console errors (CSP violations show there); returns the list it fills."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors
