"""The topic tree under one versioned root (docs/VENUE.md "Topics"), and the limits every message is held to.

    companion/v1/tables/<table>/status          retained, QoS 1: online / offline, version, since (last will: offline)
    companion/v1/tables/<table>/summary         retained, QoS 1: the public game summary
    companion/v1/tables/<table>/health          retained, QoS 1: readers and terminals up or faulted, uptime, journal
    companion/v1/tables/<table>/results/<game>  QoS 1, not retained: one finished game's result (from the outbox)
    companion/v1/venue/announcement             retained, QoS 1, written by the venue: what every table's TV shows

A table's account is named by its table id, so the broker's ACL (`pattern write companion/v1/tables/%u/#`) lets
it write only its own subtree; it may read only the announcement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.venue.errors import VenueError

ROOT = "companion/v1"
TABLES = f"{ROOT}/tables"
ANNOUNCEMENT = f"{ROOT}/venue/announcement"
KINDS = ("status", "summary", "health")
"""A table's retained topics, by their last level."""
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
"""A table id: one topic level and one broker account (the config's `venue.table` checks the same)."""
MAX_PAYLOAD = {"status": 512, "summary": 16384, "health": 8192, "results": 8192, "announcement": 4096}
"""Bytes a message of each kind may carry; a larger one is refused (`payload_too_large`) unread."""
MAX_ANNOUNCEMENT_CHARS = 280
"""An announcement's text at most: a TV banner read across the room, not a letter."""


def table_topic(table: str, kind: str) -> str:
    """The topic of one of a table's retained messages (`status`, `summary`, `health`)."""
    return f"{TABLES}/{table}/{kind}"


def result_topic(table: str, game_id: int) -> str:
    """The topic one finished game's result is published on."""
    return f"{TABLES}/{table}/results/{game_id}"


def table_filter(table: str = "+") -> str:
    """The subscription filter for every message of one table (`+`: of every table)."""
    return f"{TABLES}/{table}/#"


@dataclass(frozen=True)
class Address:
    """Where a message came from: its table, its kind (status, summary, health, results) and a result's game id."""

    table: str
    kind: str
    game_id: int | None = None


def parse_topic(topic: str) -> Address:
    """The address of a table's message; raises VenueError `unknown_topic` for any other topic, `bad_table_id` for
    a table id no account can have, `bad_game_id` for a result without a game number."""
    parts = topic.split("/")
    if parts[:3] != TABLES.split("/") or len(parts) not in (5, 6):
        raise VenueError("unknown_topic", f"not a table's topic: {topic[:120]!r}")
    table, kind = parts[3], parts[4]
    if not TABLE_ID.match(table):
        raise VenueError("bad_table_id", f"{table[:40]!r} is not a table id")
    if len(parts) == 5 and kind in KINDS:
        return Address(table, kind)
    if len(parts) == 6 and kind == "results":
        if not parts[5].isdigit() or len(parts[5]) > 12 or int(parts[5]) < 1:
            raise VenueError("bad_game_id", f"a result is published under its game's number, not {parts[5][:20]!r}")
        return Address(table, kind, int(parts[5]))
    raise VenueError("unknown_topic", f"not a table's topic: {topic[:120]!r}")
