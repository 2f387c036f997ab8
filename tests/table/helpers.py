"""Small helpers for driving a table through its mock hardware."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from companion.games import get_rules
from companion.games.binding import get_binding
from companion.games.registry import game_names
from companion.hal.mock import MockHardware
from companion.table.cards import card_id
from companion.table.core.commands import Ping, parse_command
from companion.table.loop import Call, TableLoop
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime


def card_games() -> list[str]:
    """The registered games that read cards (a deck list at their fewest seats): a game with no components has
    no physical play, no tag and no read to follow."""
    return [game for game in game_names() if get_binding(game).deck_list(get_rules(game).min_seats)]


def hw(rt: Runtime) -> MockHardware:
    """The runtime's mock hardware."""
    assert isinstance(rt.hardware, MockHardware)
    return rt.hardware


def host_call(loop: TableLoop, name: str, **args: Any) -> Any:
    """Run a named command as the web does: parsed once into its typed form, then on the loop (else the refusal)."""
    command = parse_command(name, args)
    return command if isinstance(command, Refusal) else loop.call(command)


def played(rt: Runtime, uid: str) -> str:
    """The id the running game knows a tag's card by (games never see UIDs)."""
    session = rt.loop.session
    assert session is not None
    return card_id(rt.cards.card_key(), session.game_id, uid)


def enroll(rt: Runtime, uid: str, kind: str, value: str, game: str | None = None) -> None:
    """Enroll a card through the loop (as the host page does)."""
    args: dict[str, Any] = {"uid": uid, "kind": kind, "value": value}
    if game:
        args["game"] = game
    result = host_call(rt.loop, "enroll", **args)
    assert isinstance(result, dict), result


def enroll_deck(rt: Runtime, game: str, seats: int, first: int) -> int:
    """Enroll one made-up tag (`first`, `first + 1`, ... as 8 hex digits) per component `game` reads at this seat
    count; returns the next free number."""
    n = first
    for item in get_binding(game).deck_list(seats):
        for _ in range(item.count):
            enroll(rt, f"{n:08X}", item.kind, item.value, game)
            n += 1
    return n


def tap(rt: Runtime, reader: str, uid: str) -> None:
    """Place a tag, let the table handle it, take it away again."""
    hw(rt).place(reader, uid)
    rt.loop.wait_idle()
    hw(rt).remove(reader)
    rt.loop.wait_idle()


def zone_pixels(rt: Runtime, zone: str) -> tuple[tuple[int, int, int], ...]:
    """The pixels a zone shows now (after the renderer caught up)."""
    z = next(z for z in rt.config.leds.zones if z.zone == zone)
    assert rt.renderer.wait_rendered()
    frame = hw(rt).mock_strip.last()
    assert frame is not None
    return frame[z.start:z.start + z.count]


def live_rows(rt: Runtime) -> list[dict[str, Any]]:
    """The journal rows of the current game that are not undone."""
    session = rt.loop.session
    assert session is not None
    return [r for r in rt.journal.rows(session.game_id) if not r["undone"]]


def queue_while_busy(rt: Runtime, items: list[Any]) -> None:
    """Hold the loop thread (in a ping's answer, which runs on it), queue `items`, let go, wait until handled."""
    held, release = threading.Event(), threading.Event()
    call = Call(Ping())
    call.future.add_done_callback(lambda _: (held.set(), release.wait(5)))
    rt.loop.inbox.put(call)
    assert held.wait(5)
    for item in items:
        rt.loop.inbox.put(item)
    release.set()
    rt.loop.wait_idle()


def settle(rt: Runtime, until: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the table handle what comes back to it later (a bot's move, a timer's tick) until `until` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rt.loop.wait_idle()
        if until():
            return
        time.sleep(0.02)
    raise AssertionError("the table did not get there in time")
