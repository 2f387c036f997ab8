"""Finished games in the core: listing them, their records (every secret, once over) and their replay links."""

from __future__ import annotations

from typing import Any

from companion.table.core import commands as c
from companion.table.core.bots import parse_source
from companion.table.core.effects import ShareRow
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState
from companion.table.refusal import Refusal
from companion.table.session import token as new_token

SHARE_TOKEN_BYTES = 24
"""A replay link's token: 192 random bits, as unguessable as a seat token and more."""


def _finished_record(game_id: int | None, ctx: Context) -> Any:
    """The journaled game (the newest when None) once it is over, else a Refusal."""
    if game_id is None:
        history = ctx.journal.history(1)
        game_id = history[0]["id"] if history else None
    record = ctx.journal.game(game_id) if game_id is not None else None
    if record is None:
        return Refusal("no_game" if game_id is None else "no_such_game",
                       "No game has been played yet." if game_id is None else f"There is no game {game_id}.")
    if record.ended is None:
        return Refusal("game_running", "The record can be exported once the game is over.")
    return record


def _export_record(state: TableState, cmd: c.ExportRecord, ctx: Context) -> Step:
    """A finished game's record (setup + live actions, the replay format) with its seats as the table names them."""
    record = _finished_record(cmd.game_id, ctx)
    if isinstance(record, Refusal):
        return Step(state, reply=record)
    seats = [{"name": s.name, "colour": s.colour} for s in ctx.config.seats[: record.seats]]
    return Step(state, reply={
        "id": record.id, "setup": {"game": record.game, "seats": record.seats, "options": record.options},
        "components": record.components, "actions": list(record.actions), "end_reason": record.end_reason,
        "outcome": ctx.journal.outcome_of(record.id), "started": record.started, "ended": record.ended,
        "seat_info": seats, "bot_moves": bot_moves(ctx.journal.rows(record.id))})


def bot_moves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each live action a bot chose, by its index among the live actions: the seat, the decision's seed and
    its reason with params (what the replay shows, and what lets a replay decide it again)."""
    out = []
    live = [row for row in rows if not row["undone"]]
    for index, row in enumerate(live):
        bot = parse_source(row["source"])
        if bot is not None:
            out.append({"index": index, "seat": row["action"].get("seat"), "seed": bot.get("seed"),
                        "reason": bot.get("reason"), "params": bot.get("params") or {}})
    return out


def _list_games(state: TableState, cmd: c.ListGames, ctx: Context) -> Step:
    return Step(state, reply={"games": ctx.journal.finished(),
                              "table_seats": [s.name for s in ctx.config.seats]})


def _share_game(state: TableState, cmd: c.ShareGame, ctx: Context) -> Step:
    """A new replay link for a finished game (or every link of it revoked)."""
    record = _finished_record(cmd.game_id, ctx)
    if isinstance(record, Refusal):
        return Step(state, reply=record)
    if cmd.revoke:
        return Step(state, (ShareRow(record.id, None),), reply={"game": record.id, "revoked": True})
    token = new_token(ctx.tokens, SHARE_TOKEN_BYTES)
    return Step(state, (ShareRow(record.id, token),), reply={"game": record.id, "token": token})


def _shared_game(state: TableState, cmd: c.SharedGame, ctx: Context) -> Step:
    """The finished game a replay link opens; an unknown link, or one whose game was reopened, opens nothing."""
    game_id = ctx.journal.shared_game(cmd.token)
    record = ctx.journal.game(game_id) if game_id is not None else None
    if record is None or record.ended is None:
        return Step(state, reply=Refusal("bad_share", "That replay link is not valid."))
    return Step(state, reply={"game": record.id})


HANDLERS: dict[type, Any] = {
    c.ExportRecord: _export_record, c.ListGames: _list_games, c.ShareGame: _share_game, c.SharedGame: _shared_game,
}
"""Command type -> handler for the finished games; read-only."""
