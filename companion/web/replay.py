"""After the game: the finished games and their history (host), the replay of one (host or its share link), and
the reveal of the table's game once it is over (public, only then).

Every record comes from the journal through the table facade; every step is computed here from the record
(`companion.games.timeline`), never on the table's loop thread.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from companion.errors import CompanionError
from companion.games.timeline import Record, StepError, card_catalogue, public_lines, record_text
from companion.web.api import table
from companion.web.auth import is_host, require_host
from companion.web.errors import ApiError
from companion.web.history import played_of, stats, stats_csv
from companion.web.lan import seat_base_url
from companion.web.pages import error_page, preferred_lang
from companion.web.site import templates_dir
from companion.games.json_value import Json, JsonObject

bp = Blueprint("replay", __name__, template_folder=str(templates_dir()))

CACHE_KEY = "replay_finals"
CACHE_LIMIT = 1024
"""Finished games' reveal lines and winning sides, by (game id, action count): a game reopened by an undo has
another count, so it is never answered from the cache."""
MARKS_KEY = "replay_marks"
MARKS_LIMIT = 8
"""The checkpoint states of the games being replayed now (a few: they hold whole states)."""


def _answer(result: Any) -> dict[str, Json]:
    """A table reply, or raise its refusal."""
    if isinstance(result, CompanionError):
        raise ApiError(result.code, result.message)
    if not isinstance(result, dict):
        raise ApiError("busy", "the table did not answer")
    return result


def finished_record(game_id: int) -> dict[str, Json]:
    """A finished game's record from the journal (the table refuses a running or unknown one)."""
    return _answer(table().host_command("export_record", {"game": game_id}))


def record_of(reply: JsonObject) -> Record:
    """The pure record of an export reply."""
    setup = reply["setup"]
    return Record(setup["game"], int(setup["seats"]), dict(setup.get("options") or {}), tuple(reply["actions"]))


def finals(game_id: int, reply: JsonObject) -> dict[str, Json]:
    """A finished game's reveal lines and winning sides (cached per app: finished games do not change)."""
    cache: dict[tuple[int, int], dict[str, Json]] = current_app.extensions.setdefault(CACHE_KEY, {})
    key = (game_id, len(reply["actions"]))
    if key not in cache:
        if len(cache) >= CACHE_LIMIT:
            cache.pop(next(iter(cache)))
        try:
            _, lines, sides = record_of(reply).final(ended=True)
        except StepError as exc:
            raise ApiError(exc.code, exc.message) from None
        cache[key] = {"reveal": lines, "sides": sides}
    return cache[key]


def cards_of(game_id: int, reply: JsonObject) -> dict[str, Json]:
    """The card catalogue of a finished game's whole timeline (only the replay needs it: the history does not)."""
    done = finals(game_id, reply)
    if "cards" not in done:
        try:
            done["cards"] = card_catalogue(record_of(reply))
        except StepError as exc:
            raise ApiError(exc.code, exc.message) from None
    return dict(done["cards"])


def lines_of(game_id: int, reply: JsonObject) -> list[list[dict[str, Json]]]:
    """Each action's public log lines in a finished game (what the replay shows with hidden things closed)."""
    done = finals(game_id, reply)
    if "public_lines" not in done:
        try:
            done["public_lines"] = public_lines(record_of(reply))
        except (StepError, ValueError) as exc:
            raise ApiError("unreplayable", f"the record no longer replays: {exc}"[:300]) from None
    return list(done["public_lines"])


def marks(game_id: int, record: Record) -> tuple[Any, ...]:
    """The checkpoint states of a game being replayed, so a step costs at most CHECKPOINT_EVERY applies."""
    cache: dict[tuple[int, int], tuple[Any, ...]] = current_app.extensions.setdefault(MARKS_KEY, {})
    key = (game_id, len(record.actions))
    if key not in cache:
        if len(cache) >= MARKS_LIMIT:
            cache.pop(next(iter(cache)))
        cache[key] = record.checkpoints()
    return cache[key]


def allow(game_id: int) -> None:
    """Let through the host session, or a share link (`?t=`) made for this very game; else refuse."""
    if is_host():
        return
    token = request.args.get("t")
    if not token:
        raise ApiError("unauthorised", "log in as host, or open the replay link the host shared")
    reply = table().host_command("shared_game", {"token": token})
    if isinstance(reply, CompanionError) or not isinstance(reply, dict) or reply.get("game") != game_id:
        raise ApiError("bad_share", "that replay link is not valid for this game", 403)


# --- the host's list, history and share links -----------------------------------------------------------


@bp.get("/api/host/games")
def games() -> Any:
    """Every finished game (id, game, seats, start and end time, end reason, outcome, action count)."""
    require_host(post=False)
    return jsonify(ok=True, **_answer(table().host_command("list_games", {})))


def history() -> tuple[list[dict[str, Json]], list[str]]:
    """Per game: games played, wins by side / seat / reason, average length; and the table's seat names."""
    listing = _answer(table().host_command("list_games", {}))

    cache: dict[tuple[int, int], dict[str, Json]] = current_app.extensions.setdefault(CACHE_KEY, {})

    def sides(row: JsonObject) -> list[str]:
        known = cache.get((int(row["id"]), int(row["actions"])))
        if known is not None:  # no trip to the table for a game already counted
            return list(known["sides"])
        try:
            return list(finals(int(row["id"]), finished_record(int(row["id"])))["sides"])
        except ApiError:  # a record that no longer replays still counts, by seat
            return []

    return stats(played_of(r, sides) for r in listing["games"]), list(listing.get("table_seats") or [])


@bp.get("/api/host/games/stats")
def games_stats() -> Any:
    """The history across games."""
    require_host(post=False)
    rows, names = history()
    return jsonify(ok=True, stats=rows, table_seats=names)


@bp.get("/host/export/history.csv")
def history_csv() -> Response:
    """The history across games as a CSV download."""
    require_host(post=False)
    return Response(stats_csv(*history()), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="history.csv"', "Cache-Control": "no-store"})


@bp.post("/api/host/games/<int:game_id>/share")
def share(game_id: int) -> Any:
    """A new replay link for one finished game (the link opens that game only), at the table's public address
    (the seat links' base: a phone cannot follow the host browser's loopback address)."""
    require_host(post=True)
    reply = _answer(table().host_command("share_game", {"game": game_id}))
    return jsonify(ok=True, game=game_id, url=f"{seat_base_url()}replay/{game_id}?t={reply['token']}")


@bp.post("/api/host/games/<int:game_id>/unshare")
def unshare(game_id: int) -> Any:
    """Revoke every replay link of one game."""
    require_host(post=True)
    _answer(table().host_command("share_game", {"game": game_id, "revoke": True}))
    return jsonify(ok=True, game=game_id, revoked=True)


def export_record_text(reply: JsonObject) -> str:
    """A record as the `companion replay` JSON lines."""
    return record_text(reply["setup"], reply["actions"])


# --- the replay ---------------------------------------------------------------------------------------------

ERROR_PAGES = {"unauthorised": ("replay.login", 401), "bad_share": ("replay.bad_link", 403),
               "no_such_game": ("replay.unknown", 404), "game_running": ("replay.running", 409)}
"""Refusal code -> (the words of the error page, its HTTP status)."""


@bp.get("/replay/<int:game_id>")
def replay_page(game_id: int) -> tuple[str, int] | str:
    """The replay viewer; without the host session or this game's share link an error page that says why."""
    try:
        allow(game_id)
        finished_record(game_id)
    except ApiError as exc:
        key, status = ERROR_PAGES.get(exc.code, ("ui.error", exc.status))
        return error_page(key, status)
    return render_template("replay.html", lang=preferred_lang(), csrf_token="", game_id=game_id)


@bp.get("/api/replay/<int:game_id>")
def replay_record(game_id: int) -> Any:
    """The whole finished game: setup, seats, every action (the timeline), outcome, the reveal lines, and each
    bot's move with its reason (by action index)."""
    allow(game_id)
    reply = finished_record(game_id)
    record = record_of(reply)
    done = finals(game_id, reply)
    return jsonify(ok=True, id=game_id, game=record.game, seats=record.seats, options=record.options,
                   components=reply.get("components"), started=reply.get("started"), ended=reply.get("ended"),
                   end_reason=reply.get("end_reason"), outcome=reply.get("outcome"),
                   seat_info=reply.get("seat_info") or [], actions=list(record.actions), steps=len(record.actions),
                   reveal=done["reveal"], sides=done["sides"], card_info=cards_of(game_id, reply),
                   public_lines=lines_of(game_id, reply),
                   bot_moves=reply.get("bot_moves") or [])


@bp.get("/api/replay/<int:game_id>/step/<int:step>")
def replay_step(game_id: int, step: int) -> Any:
    """The table after `step` actions: a public snapshot (as the table page draws it) and what was hidden."""
    allow(game_id)
    reply = finished_record(game_id)
    record = record_of(reply)
    try:
        at = record.step(step, marks(game_id, record))
    except StepError as exc:
        raise ApiError(exc.code, exc.message) from None
    game = {"id": game_id, "name": reply["setup"]["game"], "seats": reply["setup"]["seats"],
            "components": reply.get("components"), "actions": step, "to_act": at["to_act"],
            "outcome": at["outcome"], "view": at["view"], "table_info": at["table_info"]}
    return jsonify(ok=True, step=step, steps=at["steps"], action=at["action"], hidden=at["hidden"],
                   snapshot={"table": {"status": "replay"}, "game": game, "seats": reply.get("seat_info") or []})


# --- the reveal on the table page ---------------------------------------------------------------------------


@bp.get("/api/reveal")
def reveal() -> Any:
    """The table's game laid open, only once it is over: each seat's secrets at the end and the reveal lines."""
    game = (table().public_state() or {}).get("game") or {}
    if not game or not game.get("outcome"):
        raise ApiError("game_running", "the reveal opens once the game is over")
    game_id = int(game["id"])
    reply = finished_record(game_id)
    record = record_of(reply)
    try:
        at = record.step(len(record.actions))
    except StepError as exc:
        raise ApiError(exc.code, exc.message) from None
    return jsonify(ok=True, id=game_id, game=record.game, reveal=finals(game_id, reply)["reveal"],
                   seats=at["hidden"]["seats"])


def register(app: Flask) -> None:
    """Add the replay, the history and the reveal to an app."""
    app.register_blueprint(bp)
