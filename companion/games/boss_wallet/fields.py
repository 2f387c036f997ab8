"""Boss's Wallet's view fields, log params and action fields, each by what it holds (docs/RULES.md, Boss's
Wallet)."""

from companion.games.schema import FieldKind as K
from companion.games.schema import ViewFields

FIELDS = ViewFields(
    asked=K.COUNTS, awards=K.RECORDS, awards_due=K.RECORDS, card=K.WORD, cards=K.CARDS,
    cents=K.COUNT, chip=K.COUNT, chip_pool=K.COUNT, chip_values=K.PER_SEAT, coin=K.COUNT, coins=K.PER_SEAT,
    confiscated_by=K.SEAT, confiscated_cents=K.COUNT, count=K.COUNT, credit_bill=K.WORD, credit_drawn=K.CARDS,
    extra_ids_left=K.COUNT, finished=K.FLAG, game=K.WORD, guilt_cents=K.COUNT, guilty=K.FLAG, hand=K.CARDS,
    hand_complete=K.FLAG, hand_size=K.COUNT, hands=K.PER_SEAT, hourglasses=K.COUNT, hourglasses_total=K.COUNT,
    id_card=K.WORD, identity=K.WORD, investigations=K.RECORDS, last_round=K.RECORD, officers=K.COUNTS,
    on_duty=K.FLAG, paid=K.CARDS, paid_count=K.COUNT, players=K.RECORDS, ranking=K.COUNTS, reasons=K.WORDS,
    returned=K.COUNTS, round=K.COUNT, rounds=K.COUNT, sample_deck=K.FLAG, scanned=K.FLAG,
    seats=K.SEATS, size_check=K.FLAG, specials_used=K.CARDS, start_seat=K.SEAT, target=K.SEAT, turn=K.SEAT,
    verdict=K.WORD, wallet=K.COUNT, wealth_cents=K.COUNT,
    # one chip in an award's record and a log entry, the chips awarded in an action
    chips=K.VALUE,
)
"""Every field name Boss's Wallet's views, log entries, actions and bot reasons use."""
