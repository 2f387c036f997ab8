"""Host and seat commands, run on the loop thread (the only writer).

Every handler makes its journal write (one transaction) before it changes the session or shows anything, so a
failed write (sqlite3.Error) is refused with the journal's fault code and leaves the table as the journal says."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import replace
from typing import Any, Callable, Mapping

from companion.games.contract import IllegalAction
from companion.table.cards import CardError
from companion.table.journal import fault_code
from companion.table.session import from_record
from companion.table.terminals import IDLE, check_binding
from companion.web.facade import Refusal

Result = dict[str, Any] | Refusal
log = logging.getLogger("companion.table")


def run(loop: Any, name: str, args: Mapping[str, Any]) -> Result:
    """Dispatch one command; unknown names are refused."""
    handler = COMMANDS.get(name)
    if handler is None:
        return Refusal("unknown_command", f"unknown command {name!r}")
    try:
        return handler(loop, args)
    except sqlite3.Error as exc:  # each handler writes before it changes anything: nothing changed
        log.error("journal write failed in %s: %s", name, exc)
        loop.counters.errors += 1
        return Refusal(fault_code(exc), f"The journal could not be written: {exc}")


def _ping(loop: Any, args: Mapping[str, Any]) -> Result:
    return {}


def _submit(loop: Any, args: Mapping[str, Any]) -> Result:
    from companion.games.binding import Chosen
    seat, action, source = args.get("seat"), args.get("action"), str(args.get("source", "api"))
    if not isinstance(action, dict):
        return Refusal("malformed", "an action is a JSON object")
    if seat is None:  # the host acts directly (e.g. entering a draw by hand): the engine judges it alone
        paused = loop._paused()
        if paused:
            return paused
        return loop._apply([dict(action)], loop.session.pending, "center", source)
    return loop._input(Chosen(seat, action), f"seat:{seat}", source)


def _new_game(loop: Any, args: Mapping[str, Any]) -> Result:
    cfg = loop.config.game
    return loop._new_game(args.get("game", cfg.name), args.get("seats", cfg.seats), args.get("options") or {},
                          args.get("components", cfg.components))


def _undo(loop: Any, args: Mapping[str, Any]) -> Result:
    """Undo the last player action and the chance actions after it: replay all but them."""
    session = loop.session
    if session is None or session.ended not in (None, "finished"):
        return Refusal("no_game", "No game to undo in.")
    keep = max((i for i, a in enumerate(session.actions) if a.get("seat", -1) != -1), default=None)
    if keep is None:
        return Refusal("nothing_to_undo", "No player action to undo.")
    loop.journal.undo_from(session.game_id, keep, reopen=session.ended == "finished")  # one transaction
    record = loop.journal.game(session.game_id)
    taken_back = tuple(a for a in session.actions[keep:] if a.get("seat", -1) == -1)
    loop.session = replace(from_record(record), reserved_chance=taken_back + session.reserved_chance)
    loop.status = "running"
    loop._publish()
    return {"undone": len(session.actions) - keep, "actions": keep}


def _end_game(loop: Any, args: Mapping[str, Any]) -> Result:
    session = loop.session
    if session is None:
        return Refusal("no_game", "No game is running.")
    if session.ended is None:
        loop.journal.end_game(session.game_id, "ended_by_host", None)
    loop.session = None
    loop.status = "idle"
    loop._prompts.clear()
    loop._publish()
    for terminal in sorted(loop.terminals.seats):
        loop.hw.terminals.send(terminal, dict(IDLE))
    return {"ended": session.game_id}


def _bind_terminal(loop: Any, args: Mapping[str, Any]) -> Result:
    """Bind a terminal to a seat (`seat` null unbinds it). A seat that has another terminal moves to this one:
    the old terminal is unbound and shown idle. Journaled first; a failed write changes nothing."""
    try:
        terminal, seat = check_binding(args.get("terminal"), args.get("seat"), len(loop.config.seats))
    except IllegalAction as exc:
        return Refusal(exc.code, exc.message)
    rows = loop.terminals.plan(terminal, seat)
    loop.journal.bind_terminals(rows)  # a failed write is refused by `run` with its fault code
    loop.terminals.apply(rows)
    for bound, bound_seat in rows:  # the new terminal shows the seat's open prompt at once; the old one idles
        loop.hw.terminals.send(bound, loop.seat_screen(bound_seat))
    loop.bus.publish("terminal", {"terminal": terminal, "seat": seat})
    return {"terminal": terminal, "seat": seat, "unbound": [t for t, _ in rows[1:]]}


def _resume(loop: Any, args: Mapping[str, Any]) -> Result:
    if loop.status != "resume_check":
        return Refusal("not_paused", "The table is not waiting to resume.")
    loop.status = "over" if loop.session and loop.session.ended else "running"
    loop.scan = []
    loop._publish()
    return {"status": loop.status}


def _enroll_mode(loop: Any, args: Mapping[str, Any]) -> Result:
    on = args.get("on")
    if not isinstance(on, bool):
        return Refusal("bad_field", "field 'on' must be true or false")
    loop.enrolling = on
    loop._publish()
    return {"enrolling": on}


def _enroll(loop: Any, args: Mapping[str, Any]) -> Result:
    raw = dict(args)
    if "game" not in raw and loop.session is not None:
        raw["game"] = loop.session.game
    try:
        card = loop.cards.enroll(raw)
    except CardError as exc:
        return Refusal(exc.code, exc.message)
    loop.bus.publish("card_enrolled", {"uid": card.uid})
    return {"card": {"uid": card.uid, "game": card.game, "kind": card.kind, "value": card.value, "label": card.label}}


def _forget_card(loop: Any, args: Mapping[str, Any]) -> Result:
    try:
        return {"forgotten": loop.cards.forget(args.get("uid"))}
    except CardError as exc:
        return Refusal(exc.code, exc.message)


def _export_cards(loop: Any, args: Mapping[str, Any]) -> Result:
    return {"deck": loop.cards.export(args.get("game"))}


def _import_cards(loop: Any, args: Mapping[str, Any]) -> Result:
    try:
        return {"imported": loop.cards.import_deck(args.get("deck"))}
    except CardError as exc:
        return Refusal(exc.code, exc.message)


def _export_record(loop: Any, args: Mapping[str, Any]) -> Result:
    """The newest game's record (setup + live actions, the replay format) once it is over: it holds every secret."""
    history = loop.journal.history(1)
    record = loop.journal.game(history[0]["id"]) if history else None
    if record is None:
        return Refusal("no_game", "No game has been played yet.")
    if record.ended is None:
        return Refusal("game_running", "The record can be exported once the game is over.")
    return {"id": record.id, "setup": {"game": record.game, "seats": record.seats, "options": record.options},
            "mode": record.mode, "actions": list(record.actions), "end_reason": record.end_reason,
            "outcome": history[0]["outcome"]}


def _host_state(loop: Any, args: Mapping[str, Any]) -> Result:
    session = loop.session
    c = loop.counters
    return {
        "status": loop.status,
        "enrolling": loop.enrolling,
        "game": None if session is None else {
            "id": session.game_id, "name": session.game, "seats": session.seats, "mode": session.mode,
            "options": session.options, "actions": len(session.actions), "ended": session.ended,
            "seat_tokens": [{"seat": i, "token": t, "path": f"/seat/{t}"} for i, t in enumerate(session.tokens)],
            "pending_inputs": len(session.pending or ()),
        },
        "expected_vs_seen": loop.scan,
        "terminals": loop.terminals.rows(),
        "table_seats": [s.name for s in loop.config.seats],
        "counters": {"inputs": c.inputs, "accepted": c.accepted, "rejected": c.rejected,
                     "unknown_tags": c.unknown_tags, "duplicates": c.duplicates, "errors": c.errors,
                     "reader_faults": c.reader_faults},
        "cards": len(loop.cards.all()),
        "history": loop.journal.history(20),
    }


COMMANDS: dict[str, Callable[[Any, Mapping[str, Any]], Result]] = {
    "_ping": _ping, "submit": _submit, "new_game": _new_game, "undo": _undo, "end_game": _end_game,
    "resume": _resume, "enroll_mode": _enroll_mode, "enroll": _enroll, "forget_card": _forget_card,
    "export_cards": _export_cards, "import_cards": _import_cards, "host_state": _host_state,
    "export_record": _export_record, "bind_terminal": _bind_terminal,
}
"""Command name -> handler; read-only."""

