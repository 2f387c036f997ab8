"""Shared helpers for the game-binding table tests: an example config on mock hardware, a watched public
feed, and wrong-input checks."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import GameConfig, PollingConfig, load_config
from companion.games.binding import RED
from companion.hal import terminal_protocol as proto
from companion.table.core.commands import Submit
from companion.table.core.refusals import TABLE_PUBLIC_CODES
from companion.table.runtime import Runtime
from tests.table.helpers import hw, live_rows

ROOT = Path(__file__).resolve().parents[2]


def example_table(tmp_path: Path, config: str, game: str, seats: int, mode: str, seed: int = 0) -> Runtime:
    """A started table from hardware/tables/<config>, fast polling, data in tmp_path."""
    cfg = load_config(ROOT / "hardware" / "tables" / config)
    cfg = replace(cfg, data_dir=str(tmp_path / "data"), game=GameConfig(game, seats, mode),
                  polling=PollingConfig(interval_ms=4, removal_ms=16))
    return Runtime(cfg, rng=random.Random(seed)).start()


@pytest.fixture()
def tables(tmp_path: Path) -> Iterator[list[Runtime]]:
    """Runtimes started by a test, stopped at its end."""
    started: list[Runtime] = []
    yield started
    for rt in started:
        rt.stop()


def deck(name: str) -> dict[str, Any]:
    """A deck file from hardware/decks."""
    return json.loads((ROOT / "hardware" / "decks" / name).read_text())


class PublicFeed:
    """Every public SSE event since subscribing (the page's whole feed), as JSON text; and the host's stream."""

    def __init__(self, rt: Runtime) -> None:
        self.sub = rt.handle.subscribe(None)
        self.host = rt.handle.subscribe(None, host=True)
        self.seen: list[str] = []
        self.host_seen: list[str] = []

    def drain(self) -> str:
        """Everything published since the last drain."""
        out = _drain(self.sub)
        self.seen += out
        return "\n".join(out)

    def drain_host(self) -> str:
        """Everything the host's stream carried since its last drain."""
        out = _drain(self.host)
        self.host_seen += out
        return "\n".join(out)


def _drain(sub: Any) -> list[str]:
    out = []
    while True:
        event = sub.get(0.01)
        if event is None:
            return out
        out.append(f"{event.type} {json.dumps(event.data, sort_keys=True)}")


def zone_span(rt: Runtime, zone: str) -> tuple[int, int]:
    """(start, count) of a zone's LEDs."""
    z = next(z for z in rt.config.leds.zones if z.zone == zone)
    return z.start, z.count


def flashed(rt: Runtime, zone: str, after: int) -> bool:
    """Whether the zone showed red (a flash) in a frame after the `after`-th one."""
    start, _ = zone_span(rt, zone)
    return hw(rt).mock_strip.wait_for(lambda f: f[start] == RED, after=after, timeout=5) is not None


def refused(rt: Runtime, feed: PublicFeed, zone: str, code: str, before_rows: int, shown: int) -> None:
    """The last input was refused with `code` at `zone`: a rejected event naming the zone for everyone (with the
    code only when the game declares it public), the code for the host, a red flash, nothing journaled."""
    rt.loop.wait_idle()
    text = feed.drain()
    session = rt.loop.session
    rules = session.rules if session is not None else None
    public = code in TABLE_PUBLIC_CODES or (rules is not None and code in rules.public_codes
                                            | rules.public_binding_codes)
    said = [{"zone": zone}] + ([{"code": code, "zone": zone}] if public else [])  # a binding's code is private
    assert any(f'rejected {json.dumps(one, sort_keys=True)}' in text for one in said), text
    assert f'"code": "{code}"' not in text or public, f"a private code on the public stream: {text}"
    host = feed.drain_host()
    assert any(line.startswith("rejected ") and json.loads(line[len("rejected "):]).get("code") == code
               and json.loads(line[len("rejected "):]).get("zone") == zone for line in host.splitlines()), host
    assert len(live_rows(rt)) == before_rows
    assert flashed(rt, zone, shown)


def view(rt: Runtime, seat: int | None = None) -> dict[str, Any]:
    """The current view (public by default)."""
    session = rt.loop.session
    assert session is not None
    return session.rules.view(session.state, seat)  # type: ignore[no-any-return]


def choose(rt: Runtime, seat: int, **match: Any) -> None:
    """Pick, on the seat's mock terminal (through its pages and levels), the first prompt option whose action
    has these fields; when the terminal says "use your phone", pick it on the seat page instead."""
    hub = hw(rt).mock_terminals
    terminal = f"T{seat}"
    if terminal not in hub.connected():
        hub.connect(terminal)
        rt.loop.wait_idle()
    prompt = hub.last_prompt(terminal)
    assert prompt and prompt["type"] == "prompt", prompt
    option = next((o for o in prompt["options"] if all(o["action"].get(k) == v for k, v in match.items())), None)
    assert option is not None, (match, [o["action"] for o in prompt["options"]])
    if isinstance(hub.screen(terminal), proto.Phone):
        assert rt.loop.call(Submit(seat, option["action"], f"seat_page:{seat}")) is not None
    else:
        hub.choose(terminal, prompt["ballot"], option["value"])
    rt.loop.wait_idle()


def shows(rt: Runtime, zone: str, pixels: tuple[tuple[int, int, int], ...], timeout: float = 2.0) -> bool:
    """Whether the zone shows exactly these pixels now or within `timeout` (a flash may still be fading)."""
    assert rt.renderer.wait_rendered()
    start, count = zone_span(rt, zone)
    strip = hw(rt).mock_strip
    after = max(0, strip.shown - 1)
    return strip.wait_for(lambda f: f[start:start + count] == pixels, after=after, timeout=timeout) is not None
