"""Secret Hitler's view fields, log params and action fields, each by what it holds (docs/RULES.md, Secret Hitler)."""

from companion.games.schema import FieldKind as K
from companion.games.schema import ViewFields

FIELDS = ViewFields(
    agree=K.FLAG, alive=K.FLAGS, chancellor=K.SEAT, discard_pile=K.COUNT, draw_pile=K.COUNT, drew=K.CARDS,
    election_tracker=K.COUNT, fascist_policies=K.COUNT, first_president=K.SEAT, hand=K.CARDS, investigated=K.FLAGS,
    investigations=K.WORDS, known=K.WORDS, liberal_policies=K.COUNT, party=K.WORD, passed=K.FLAG, peek=K.CARDS,
    percent=K.COUNT, policies=K.CARDS, policy=K.WORD, president=K.SEAT, reason=K.WORD, received=K.CARDS,
    role=K.WORD, roles=K.PER_SEAT, seats=K.COUNT, target=K.SEAT, term_limited=K.COUNTS,
    veto_unlocked=K.FLAG, vote=K.WORD, voted=K.FLAGS, votes=K.PER_SEAT,
)
"""Every field name Secret Hitler's views, log entries, actions and bot reasons use."""
