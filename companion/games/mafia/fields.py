"""Mafia's view fields, log params and action fields, each by what it holds (docs/RULES.md, Mafia)."""

from companion.games.schema import FieldKind as K
from companion.games.schema import ViewFields

FIELDS = ViewFields(
    acted=K.PER_SEAT, alive=K.PER_SEAT, found_mafia=K.SEATS, found_town=K.SEATS, known=K.WORDS, mafia=K.COUNT,
    mafia_left=K.COUNT, mafia_picks=K.SEATS, reason=K.WORD, role=K.WORD, roles=K.PER_SEAT, round=K.COUNT,
    seats=K.COUNT, side=K.WORD, target=K.SEAT, victim=K.SEAT, votes=K.PER_SEAT,
)
"""Every field name Mafia's views, log entries, actions and bot reasons use."""
