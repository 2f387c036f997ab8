"""The dashboard's data: the grid (`/api/venue/state`), its live stream (`/api/venue/events`: one `row` event per
changed table, `venue` for the venue's own facts, `grid` to start over), results and standings (JSON and CSV) and
the announcement. Every answer needs a staff session; every POST its CSRF token."""

from __future__ import annotations

import csv
import io
import json
import threading
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

from companion.venue.dashboard.auth import require_staff
from companion.venue.errors import VenueError
from companion.web.errors import ApiError, json_body

bp = Blueprint("venue_api", __name__)


class Streams:
    """Live streams open at once: one more is refused with 503 `stream_limit`."""

    def __init__(self, most: int) -> None:
        self._slots = threading.BoundedSemaphore(most)

    def take(self) -> None:
        """Hold a slot or refuse."""
        if not self._slots.acquire(blocking=False):
            raise ApiError("stream_limit", "too many live dashboards are open", 503)

    def give(self) -> None:
        """Free a slot."""
        self._slots.release()


def _venue() -> Any:
    return current_app.extensions["venue"]


def _venue_facts(grid: dict[str, Any]) -> dict[str, Any]:
    return {k: grid[k] for k in ("link", "announcement", "refused", "refusals", "results", "at")}


@bp.get("/api/venue/state")
def state() -> Any:
    """Every table's row (status, summary, health, alerts) and the venue's facts."""
    require_staff()
    return jsonify(ok=True, **_venue().board.grid())


def _frame(kind: str, data: Any, n: int) -> bytes:
    return f"id: {n}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n".encode()


@bp.get("/api/venue/events")
def events() -> Response:
    """The live stream: the whole grid first, then each changed row as it changes (and a comment line every
    HEARTBEAT_S, which also re-evaluates the time-based alerts)."""
    require_staff()
    streams: Streams = current_app.extensions["venue_streams"]
    streams.take()
    board = _venue().board
    heartbeat = float(current_app.config["HEARTBEAT_S"])

    def generate() -> Iterator[bytes]:
        try:
            grid = board.grid()
            n = grid["n"]
            yield _frame("grid", grid, n)
            while not board.closed:
                n, changed = board.wait(n, heartbeat)
                if board.closed:
                    return
                if changed is None:
                    grid = board.grid()
                    n = grid["n"]
                    yield _frame("grid", grid, n)
                    continue
                if not changed:
                    board.tick()
                    yield b": keep-alive\n\n"
                    continue
                out = [_frame("row", board.row(t), n) for t in changed if t]
                if "" in changed:
                    out.append(_frame("venue", _venue_facts(board.grid()), n))
                yield b"".join(out)
        finally:
            streams.give()

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"X-Accel-Buffering": "no"})


@bp.get("/api/venue/results")
def results() -> Any:
    """Recent results (newest first) and the standings per game."""
    require_staff()
    store = _venue().store
    return jsonify(ok=True, results=store.results(200), standings=store.standings(), count=store.result_count())


def _safe(text: Any) -> Any:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if isinstance(text, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(rows: list[tuple[Any, ...]], name: str) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([_safe(c) for c in row])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/venue/results.csv")
def results_csv() -> Response:
    """Every result kept, one line each (seat numbers from 1; names as the tables have them)."""
    require_staff()
    rows: list[tuple[Any, ...]] = [("table", "game_id", "game", "seats", "seat_names", "winner_seats", "winner_names",
                                    "reason", "sides", "started_utc", "ended_utc", "actions")]
    import datetime as dt

    def utc(t: float) -> str:
        return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")

    for r in _venue().store.results(limit=1_000_000):
        names = r["seat_names"]
        rows.append((r["table"], r["game_id"], r["game"], r["seats"], " | ".join(names),
                     " ".join(str(s + 1) for s in r["winners"]),
                     " | ".join(names[s] if s < len(names) and names[s] else f"seat {s + 1}" for s in r["winners"]),
                     r["reason"], " ".join(r["sides"]), utc(r["started"]), utc(r["ended"]), r["actions"]))
    return _csv(rows, "venue-results.csv")


@bp.get("/venue/standings.csv")
def standings_csv() -> Response:
    """The standings: per game, games played, wins by side and by seat name."""
    require_staff()
    rows: list[tuple[Any, ...]] = [("game", "measure", "name", "value")]
    for g in _venue().store.standings():
        rows.append((g["game"], "played", "", g["played"]))
        rows += [(g["game"], "wins_by_side", s["side"], s["wins"]) for s in g["by_side"]]
        rows += [(g["game"], "wins_by_name", e["name"] or f"{e['table']} seat {e['seat'] + 1}", e["wins"])
                 for e in g["by_name"]]
    return _csv(rows, "venue-standings.csv")


@bp.post("/api/venue/announce")
def announce() -> Any:
    """`{text}`: show it on every table's TV until each table's host dismisses it."""
    require_staff(post=True)
    body = json_body({"text": str})
    collector = _venue().collector
    if collector is None:
        raise ApiError("broker_unreachable", "the venue is not connected to its broker", 503)
    try:
        announcement = collector.announce(body["text"])
    except VenueError as exc:
        raise ApiError(exc.code, exc.message, 503 if exc.code == "broker_unreachable" else 400) from None
    return jsonify(ok=True, announcement={k: announcement[k] for k in ("id", "text", "at")})


@bp.post("/api/venue/announce/clear")
def clear() -> Any:
    """Take the announcement down."""
    require_staff(post=True)
    collector = _venue().collector
    if collector is None:
        raise ApiError("broker_unreachable", "the venue is not connected to its broker", 503)
    try:
        collector.clear()
    except VenueError as exc:
        raise ApiError(exc.code, exc.message, 503) from None
    return jsonify(ok=True)
