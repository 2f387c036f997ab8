"""Every message a table publishes, built here from public facts only, and checked here again where the venue
reads it: a payload from the wire is validated field by field (`read_*`) before anything is stored or shown.

The summary is a function of the table's public snapshot (the one the TV draws) and two times; the health of
device states and counts; a result of a finished game's journal row, its public end and the table's seat names.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Mapping, Sequence

from companion.games.schema import FieldKind
from companion.venue.errors import VenueError
from companion.venue.topics import MAX_ANNOUNCEMENT_CHARS, MAX_PAYLOAD, TABLE_ID

VERSION = 1
"""The payloads' own version (the topic root carries the tree's)."""
MAX_SEATS = 16
MAX_NAME = 40
MAX_WORD = 48
MAX_PROGRESS = 12
MAX_DEVICES = 64
STATUSES = ("starting", "idle", "running", "over", "resume_check")


def encode(payload: Mapping[str, Any]) -> bytes:
    """A payload as its wire bytes (compact UTF-8 JSON)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


# --- what a table publishes -------------------------------------------------------------------------------------


def status(state: str, version: str, since: float | None, keepalive: int) -> dict[str, Any]:
    """The retained status: online (since it connected) or offline (since it said goodbye; None in the last will,
    which the broker sends when the table vanished, so the venue takes the time it heard it)."""
    return {"v": VERSION, "state": state, "version": version, "since": since, "keepalive": keepalive}


def progress_of(view: Mapping[str, Any], fields: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """How far the game is, as the public view's own top-level counters (policy tracks, round, tracker...): every
    integer field the game's `fields` (kind -> names, as its facts carry them) do not declare a seat; the
    dashboard words each through the game's translations."""
    seats = set(fields.get(FieldKind.SEAT.value) or ())
    out: dict[str, int] = {}
    for key, value in view.items():
        if isinstance(value, int) and not isinstance(value, bool) and key not in seats and key != "seats":
            out[str(key)[:MAX_WORD]] = value
            if len(out) == MAX_PROGRESS:
                break
    return out


def summary(snapshot: Mapping[str, Any], started: float | None, last_action: float | None) -> dict[str, Any]:
    """The retained public game summary from the table's public snapshot (`{table, game: {id, name, seats, to_act,
    outcome, view, table_info}, seats}`) and the game's start and last action times: nothing else is read."""
    table = snapshot.get("table") or {}
    game = snapshot.get("game")
    out: dict[str, Any] = {"v": VERSION, "status": str(table.get("status") or "starting"), "game": None,
                           "game_id": None, "seats": 0, "seat_names": [], "phase": None, "to_act": [],
                           "chance": False, "progress": {}, "outcome": None, "actions": 0, "started": None,
                           "last_action": None}
    if not game:
        return out
    view = game.get("view") or {}
    facts = (game.get("table_info") or {}).get("facts") or {}
    to_act = [int(s) for s in game.get("to_act") or ()]
    outcome = game.get("outcome")
    out.update({
        "game": game.get("name"), "game_id": game.get("id"), "seats": int(game.get("seats") or 0),
        "seat_names": [str(s.get("name") or "")[:MAX_NAME] for s in snapshot.get("seats") or ()][:MAX_SEATS],
        "phase": view.get("phase") if isinstance(view.get("phase"), str) else None,
        "to_act": [s for s in to_act if s >= 0], "chance": -1 in to_act,
        "progress": progress_of(view, facts.get("fields") or {}),
        "outcome": None if not outcome else {"winners": list(outcome.get("winners") or ()),
                                             "reason": outcome.get("reason")},
        "actions": int(game.get("actions") or 0), "started": started, "last_action": last_action,
    })
    return out


def health(devices: Mapping[str, Any], gone: Sequence[str], uptime_s: float, journal_bytes: int,
           zones: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The retained health: each reader (named by the zone it serves, `zones`, else its own name) up or faulted,
    each terminal up, faulted (it reports a fault) or gone (seen earlier, unplugged now), the table's uptime and
    its journal's size. Device states and counts only."""
    zones = zones or {}
    readers = {zones.get(str(r.get("name")), str(r.get("name"))): "up" if r.get("ok") else "faulted"
               for r in devices.get("readers") or ()}
    terms = devices.get("terminals") or {}
    screens = terms.get("screens") or {}
    terminals: dict[str, str] = {}
    for t in terms.get("connected") or ():
        faults = (screens.get(t) or {}).get("faults")
        terminals[str(t)] = "faulted" if faults else "up"
    for t in gone:
        terminals.setdefault(str(t), "gone")
    return {"v": VERSION, "readers": dict(list(readers.items())[:MAX_DEVICES]),
            "terminals": dict(sorted(terminals.items())[:MAX_DEVICES]), "uptime_s": int(uptime_s),
            "journal_bytes": int(journal_bytes)}


def result(table: str, row: Mapping[str, Any], seat_names: Sequence[str], sides: Sequence[str]) -> dict[str, Any]:
    """One finished game's result: game, seats and their names, outcome (winners, reason) and the winners' sides,
    start, end and action count (`row`: the journal's listing of the game)."""
    outcome = row.get("outcome") or {}
    seats = int(row["seats"])
    return {"v": VERSION, "table": table, "game_id": int(row["id"]), "game": row["game"], "seats": seats,
            "seat_names": [str(n)[:MAX_NAME] for n in list(seat_names)[:seats]],
            "winners": [int(s) for s in outcome.get("winners") or ()], "reason": outcome.get("reason"),
            "sides": [str(s)[:MAX_WORD] for s in sides], "started": row["started"], "ended": row["ended"],
            "actions": int(row.get("actions") or 0)}


def announcement(announcement_id: str, text: str, at: float) -> dict[str, Any]:
    """The venue's announcement (retained on the announcement topic)."""
    return {"v": VERSION, "id": announcement_id, "text": text, "at": at}


# --- what the venue (and a table, for the announcement) accepts ---------------------------------------------------


def decode(raw: bytes, kind: str) -> dict[str, Any]:
    """A payload's JSON object, or VenueError `payload_too_large` / `malformed_payload` / `bad_version`."""
    if len(raw) > MAX_PAYLOAD[kind]:
        raise VenueError("payload_too_large", f"a {kind} message may carry {MAX_PAYLOAD[kind]} bytes, not {len(raw)}")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise VenueError("malformed_payload", f"a {kind} message is a UTF-8 JSON object") from None
    if not isinstance(data, dict):
        raise VenueError("malformed_payload", f"a {kind} message is a JSON object")
    if data.get("v") != VERSION:
        raise VenueError("bad_version", f"a {kind} message of payload version {VERSION} was expected")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _field(data: Mapping[str, Any], key: str, check: Callable[[Any], bool], what: str) -> Any:
    value = data.get(key)
    if not check(value):
        raise VenueError("malformed_payload", f"field {key!r} must be {what}")
    return value


def _int(v: Any, low: int = 0, high: int = 10**9) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _time(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v < 1e11


def _word(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= MAX_WORD and v.isascii() and v.replace("_", "").isalnum()


def _name(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= MAX_NAME and v.isprintable()


def _seats_list(v: Any, seats: int) -> bool:
    return isinstance(v, list) and len(v) <= MAX_SEATS and all(_int(s, 0, max(seats - 1, 0)) for s in v)


def read_status(data: Mapping[str, Any]) -> dict[str, Any]:
    """A status message, checked."""
    return {"state": _field(data, "state", lambda v: v in ("online", "offline"), "online or offline"),
            "version": _field(data, "version", lambda v: isinstance(v, str) and 0 < len(v) <= 32 and v.isprintable(),
                              "a version string"),
            "since": _field(data, "since", lambda v: v is None or _time(v), "a time or null"),
            "keepalive": _field(data, "keepalive", lambda v: _int(v, 1, 3600), "seconds")}


def read_summary(data: Mapping[str, Any], known_game: Callable[[str], bool]) -> dict[str, Any]:
    """A summary message, checked; a game no registry of ours knows is refused with `unknown_game`."""
    game = data.get("game")
    if game is not None and not (_word(game) and known_game(game)):
        raise VenueError("unknown_game", f"no game {str(game)[:40]!r} is known here")
    seats = _field(data, "seats", lambda v: _int(v, 0, MAX_SEATS), f"0..{MAX_SEATS}")
    outcome = data.get("outcome")
    if outcome is not None:
        if not (isinstance(outcome, dict) and _seats_list(outcome.get("winners"), seats) and _word(outcome.get("reason"))):
            raise VenueError("malformed_payload", "field 'outcome' must be null or {winners, reason}")
        outcome = {"winners": list(outcome["winners"]), "reason": outcome["reason"]}
    progress = _field(data, "progress", lambda v: isinstance(v, dict) and len(v) <= MAX_PROGRESS
                      and all(_word(k) and _int(x, -10**6, 10**6) for k, x in v.items()), "counters by name")
    return {
        "status": _field(data, "status", lambda v: v in STATUSES, "a table status"),
        "game": game, "game_id": _field(data, "game_id", lambda v: v is None or _int(v, 1, 10**12), "a game number"),
        "seats": seats,
        "seat_names": _field(data, "seat_names", lambda v: isinstance(v, list) and len(v) <= MAX_SEATS
                             and all(_name(n) for n in v), "a list of names"),
        "phase": _field(data, "phase", lambda v: v is None or _word(v), "a phase id or null"),
        "to_act": _field(data, "to_act", lambda v: _seats_list(v, seats), "a list of seats"),
        "chance": _field(data, "chance", lambda v: isinstance(v, bool), "true or false"),
        "progress": dict(progress), "outcome": outcome,
        "actions": _field(data, "actions", lambda v: _int(v, 0, 10**7), "an action count"),
        "started": _field(data, "started", lambda v: v is None or _time(v), "a time or null"),
        "last_action": _field(data, "last_action", lambda v: v is None or _time(v), "a time or null"),
    }


def _devices(v: Any, states: tuple[str, ...]) -> bool:
    return isinstance(v, dict) and len(v) <= MAX_DEVICES and all(
        isinstance(k, str) and 0 < len(k) <= 64 and k.isprintable() and x in states for k, x in v.items())


def read_health(data: Mapping[str, Any]) -> dict[str, Any]:
    """A health message, checked."""
    return {"readers": dict(_field(data, "readers", lambda v: _devices(v, ("up", "faulted")), "reader states")),
            "terminals": dict(_field(data, "terminals", lambda v: _devices(v, ("up", "faulted", "gone")),
                                     "terminal states")),
            "uptime_s": _field(data, "uptime_s", lambda v: _int(v, 0, 10**10), "seconds"),
            "journal_bytes": _field(data, "journal_bytes", lambda v: _int(v, 0, 10**13), "bytes")}


def read_result(data: Mapping[str, Any], table: str, game_id: int, known_game: Callable[[str], bool]) -> dict[str, Any]:
    """A result message, checked against the topic it came on (its table and game number)."""
    if data.get("table") != table or data.get("game_id") != game_id:
        raise VenueError("malformed_payload", "a result names the table and game of its topic")
    game = data.get("game")
    if not (_word(game) and known_game(game)):
        raise VenueError("unknown_game", f"no game {str(game)[:40]!r} is known here")
    seats = _field(data, "seats", lambda v: _int(v, 1, MAX_SEATS), f"1..{MAX_SEATS}")
    started = _field(data, "started", _time, "a time")
    return {
        "table": table, "game_id": game_id, "game": game, "seats": seats,
        "seat_names": _field(data, "seat_names", lambda v: isinstance(v, list) and len(v) <= seats
                             and all(_name(n) for n in v), "a list of names"),
        "winners": _field(data, "winners", lambda v: _seats_list(v, seats), "a list of seats"),
        "reason": _field(data, "reason", _word, "an outcome reason"),
        "sides": _field(data, "sides", lambda v: isinstance(v, list) and len(v) <= MAX_SEATS
                        and all(_word(s) for s in v), "a list of sides"),
        "started": started,
        "ended": _field(data, "ended", lambda v: _time(v) and v >= started, "a time after the start"),
        "actions": _field(data, "actions", lambda v: _int(v, 0, 10**7), "an action count"),
    }


def read_announcement(data: Mapping[str, Any]) -> dict[str, Any]:
    """An announcement, checked (its text is the venue staff's words: plain text of bounded length)."""
    text = _field(data, "text", lambda v: isinstance(v, str) and 0 < len(v.strip()) <= MAX_ANNOUNCEMENT_CHARS
                  and " ".join(v.split()).isprintable(), f"1 to {MAX_ANNOUNCEMENT_CHARS} printable characters")
    return {"id": _field(data, "id", lambda v: isinstance(v, str) and 0 < len(v) <= 32 and v.isalnum(), "an id"),
            "text": " ".join(text.split()), "at": _field(data, "at", _time, "a time")}


def valid_table(table: str) -> bool:
    """Whether a string can be a table id."""
    return bool(TABLE_ID.match(table))
