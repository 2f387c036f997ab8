"""Gangster's Dilemma's view fields, log params and action fields, each by what it holds (docs/RULES.md,
Gangster's Dilemma)."""

from companion.games.schema import FieldKind as K
from companion.games.schema import ViewField, ViewFields

FIELDS = ViewFields(
    art=K.COUNT, character=K.WORD, characters=K.WORDS, choice=K.LOCATION, choices=K.PER_SEAT, chosen=K.FLAGS,
    closed=K.FLAG, crate=K.COUNT, deck=K.COUNT, demand=K.WORD, demand_cards=ViewField(K.CATALOGUE, of="demand"),
    demands=K.CARDS, elite_demands=K.CARDS, give=K.WORD, id=K.COUNT, jewel=K.COUNT, left=K.COUNT, liquor=K.COUNT,
    location=K.LOCATION, lone_gangster_may_bribe=K.FLAG, loot=K.WORD, market_price=K.COUNT, money=K.COUNT,
    name=K.WORD, names=K.WORDS, patrolled=K.FLAG, patrols=K.LOCATION, pay=K.WORD, peek=K.LOCATION,
    peeked=K.FLAG, players=K.RECORDS, police=K.SEAT, price=K.COUNT, private=K.FLAG, private_demand_count=K.COUNT,
    private_demands=K.CARDS, resolving=K.COUNT, responded=K.FLAGS, response=K.WORD, responses=K.WORDS,
    round=K.COUNT, sample_deck=K.FLAG, seats=K.SEATS, share=K.COUNT, substitute=K.WORD, take=K.WORD,
    target=K.SEAT, to_act=K.COUNTS, trade=K.WORD, visitors=K.SEATS, why=K.WORD,
    # the board's locations (records) in a view; location numbers in a log entry and a patrol
    locations=K.VALUE,
    # every seat's points in a log entry; a player's own points in its record
    vp=K.PER_SEAT,
)
"""Every field name Gangster's Dilemma's views, log entries, actions and bot reasons use."""
