"""Thief of Baghdad's view fields, log params and action fields, each by what it holds (docs/RULES.md, Thief of
Baghdad)."""

from companion.games.schema import FieldKind as K
from companion.games.schema import ViewFields

FIELDS = ViewFields(
    acted=K.FLAG, chest=K.COUNT, chests_to_win=K.COUNT, color=K.WORD, count=K.COUNT, dancers=K.COUNT,
    deck=K.COUNT, discard=K.COUNT, draw_pending=K.COUNT, draws=K.COUNT, guards_unplaced=K.COUNT, hand=K.CARDS,
    hand_size=K.COUNT, hand_sizes=K.PER_SEAT, hands=K.PER_SEAT, palace=K.WORD, palaces=K.RECORDS,
    players=K.RECORDS, target=K.SEAT, supply=K.COUNT, take_dancer=K.FLAG, thief_moves=K.COUNT, thieves=K.COUNTS,
    to=K.WORD, turn=K.SEAT, winner=K.SEAT, with_thief=K.FLAG,
    # a card count in one log entry, the cards themselves in another and in a draw
    cards=K.VALUE,
    # a palace's chests by seat; a seat's own count of chests in its player record
    chests=K.VALUE,
    # a palace's guards: each one's owner seat, or "neutral"
    guards=K.VALUE,
    **{"from": K.WORD},
)
"""Every field name Thief of Baghdad's views, log entries, actions and bot reasons use."""
