"""One publish's views (the public view and every seat's part), built from the last publish's pieces where the
state fields they read are the very same objects (a frozen state keeps an unchanged field as it was)."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, RoundResult, State
from companion.games.boss_wallet.views import (
    ASKING, card_ids, last_round_view, own_hand, plain_players, player, private_cards, round_players, view_fields,
)
from companion.games.publishing import Published, Reuse, Views
from companion.games.rules import LogEntry, Rules
from companion.games.json_value import Json, JsonObject

_GAME_OVER = Phase.GAME_OVER
"""Read once (an enum member read off its class is a metaclass lookup)."""


class Built(NamedTuple):
    """The pieces of one publish's views (shared from publish to publish: never mutated)."""

    view: dict[str, Json]
    """The public view."""
    parts: tuple[dict[str, Json], ...]
    """Every seat's part of its view. Read: the view's catalogue entries, hands, extras, held, credit_drawn, chips,
    and the round's log lines private to the seat (written only where one of those changes for it)."""
    named: tuple[str, ...]
    """The cards the public players' shown hands and credit draws name. Read: hands, credit_drawn, verdicts."""
    named_last: tuple[str, ...]
    """The cards the latest round's hands and credit draws name. Read: last_round."""
    in_log: dict[str, Json]
    """The catalogue entries of the cards this round's public log names, in the order first named. Read: log,
    round_log."""
    choice: dict[str, Json]
    """`cfg.choice_entries` as a plain dict (merged into every seat's catalogue entries). Read: cfg."""


def views(state: State, last: Published[State] | None) -> tuple[Views, Built | None]:
    """`(public_view(state), every seat's part)`, the pieces reused from `last` (the last publish: its state
    and its `Built`) while the state fields they read are the same objects; and what the next publish reuses
    (None for a finished game: its views are built whole, showing the whole log)."""
    if state.phase is _GAME_OVER:
        return _over(state), None
    if last is None or last.carried is None or last.state.cfg is not state.cfg:
        built = _built(state)
    else:
        built = _rebuilt(state, last.state, last.carried)
    return (built.view, built.parts), built


def _over(state: State) -> Views:
    """A finished game's views, built whole."""
    players = [player(state, s, True) for s in range(state.seats)]
    last = last_round_view(state.last_round)
    shown = [p for p in (*players, *(last["players"] if last else ())) if "hand" in p]
    log, in_log = render(state.log, state.cfg.catalogue, reveal_all=True)
    public = view_fields(state, players, last, log, _card_info(
        state, tuple([c for p in shown for c in (*p["hand"], *p["credit_drawn"])]), (), in_log))
    choice = dict(state.cfg.choice_entries)
    return public, tuple([part(state, s, public, choice) for s in range(state.seats)])


def render(log: Sequence[LogEntry], catalogue: JsonObject,
           reveal_all: bool = False) -> tuple[list[dict[str, Json]], dict[str, Json]]:
    """`log_view(log, None, reveal_all)` and the catalogue entries of the cards it names (`card_ids` of each
    entry's params), in the order first named: one pass, no call per entry or flat param."""
    out: list[dict[str, Json]] = []
    named: dict[str, Json] = {}
    for e in log:
        if not reveal_all and e.to is not None:
            continue
        params = e.params.copy()  # the mapping's own dict copied, in its order
        for k, v in params.items():
            kind = type(v)
            if kind is tuple:
                params[k] = list(v)
                for c in v:
                    if type(c) is str:
                        if c in catalogue and c not in named:
                            named[c] = catalogue[c]
                    elif type(c) is not int and c is not None:
                        _name(card_ids(c), catalogue, named)
            elif kind is str:
                if v in catalogue and v not in named:
                    named[v] = catalogue[v]
            elif kind is not int and v is not None:
                _name(card_ids(v), catalogue, named)
        out.append({"code": e.code, "params": params})
    return out, named


def _name(ids: list[str], catalogue: JsonObject, named: dict[str, Json]) -> None:
    """Add the catalogue entries of `ids` not yet in `named`."""
    for c in ids:
        if c in catalogue and c not in named:
            named[c] = catalogue[c]


def _built(state: State) -> Built:
    """Every piece built anew."""
    cfg = state.cfg
    players, named = _players(state)
    last, named_last = _last_round(state.last_round)
    log, in_log = _render(state.log.tail(len(state.log) - state.round_log), cfg.catalogue, [], {})
    view = view_fields(state, players, last, log, _card_info(state, named, named_last, in_log))
    choice = dict(cfg.choice_entries)
    parts = tuple([part(state, s, view, choice) for s in range(state.seats)])
    return Built(view, parts, named, named_last, in_log, choice)


def _rebuilt(state: State, was: State, old: Built) -> Built:
    """The pieces for `state` from those built for `was` (the same config): a field that is the same object
    gives the same piece; of the players and parts only the seats whose entries changed are built again."""
    view = old.view.copy()  # the same keys in the same order; what changed is set below
    phase = state.phase
    if phase is not was.phase:
        view["phase"] = str(phase)
        view["asked"] = list(state.queue) if phase in ASKING else []
    elif state.queue is not was.queue:
        view["asked"] = list(state.queue) if phase in ASKING else []
    # plain numbers: set, no dearer than checking
    view["round"] = state.round
    view["turn"] = state.turn
    view["start_seat"] = state.start_seat
    view["hourglasses"] = state.hourglasses
    view["wallet"] = state.wallet
    view["size_check"] = state.size_check
    if state.extras is not was.extras:
        view["extra_ids_left"] = len(state.cfg.extra_ids) - len(extras_taken(state))
    if state.pool is not was.pool:
        view["chip_pool"] = sum(state.pool)
    if state.specials_used is not was.specials_used:
        view["specials_used"] = list(state.specials_used)
    if state.officers is not was.officers:
        view["officers"] = list(state.officers)
    if state.investigations is not was.investigations:
        view["investigations"] = [{"seat": o, "target": t} for o, t in state.investigations]
    if state.award_queue is not was.award_queue:
        view["awards_due"] = [{"seat": s, "chips": n} for s, n in state.award_queue]
    players, named = _players_from(state, was, old)
    if state.last_round is was.last_round:
        named_last = old.named_last
    else:
        view["last_round"], named_last = _last_round(state.last_round, was.last_round, old)
    in_log = _log_from(state, was, old, view)
    card_info = old.view["card_info"]
    if named is not old.named or named_last is not old.named_last or in_log is not old.in_log:
        fresh = _card_info(state, named, named_last, in_log)
        if fresh != card_info:  # an equal one stays the object every part was merged with
            card_info = view["card_info"] = fresh
    view["players"] = players
    parts = old.parts
    if card_info is not old.view["card_info"]:
        parts = tuple([part(state, s, view, old.choice) for s in range(state.seats)])
    else:
        seats = _rows(state.hands, was.hands) | _rows(state.extras, was.extras) | _rows(state.held, was.held)
        seats |= _rows(state.credit_drawn, was.credit_drawn) | _rows(state.chips, was.chips)
        if state.round_log != was.round_log:  # another round's log: other private lines
            seats = set(range(state.seats))
        if seats:
            changed = list(parts)
            for s in seats:
                changed[s] = part(state, s, view, old.choice)
            parts = tuple(changed)
    return Built(view, parts, named, named_last, in_log, old.choice)


def _rows(new: Sequence[Any], old: Sequence[Any]) -> set[int]:
    """The seats whose entries of a per-seat field differ (every seat when the lengths do)."""
    if new is old:
        return set()
    if len(new) != len(old):
        return set(range(max(len(new), len(old))))
    return {s for s, (a, b) in enumerate(zip(new, old)) if a is not b}


def _players(state: State) -> tuple[list[dict[str, Json]], tuple[str, ...]]:
    """The public players of a running game and the cards their shown hands and credit draws name."""
    if not state.verdicts:
        return plain_players(state), ()
    players = [player(state, s, False) for s in range(state.seats)]
    return players, tuple([c for p in players for c in (*p["hand"], *p["credit_drawn"])])


def _players_from(state: State, was: State, old: Built) -> tuple[list[dict[str, Json]], tuple[str, ...]]:
    """`_players(state)` from the last publish's: the same list while every field `player` reads is the same
    object; only the seats whose entries changed built again (an unjudged entry after a draw or a put only
    copied with its new hand size)."""
    players: list[dict[str, Json]] = old.view["players"]
    chips, sizes, hands, coins = state.chips, state.hand_sizes, state.hands, state.coins
    if (sizes is was.hand_sizes and chips is was.chips and hands is was.hands and coins is was.coins
            and state.verdicts is was.verdicts and state.credit_drawn is was.credit_drawn):
        return players, old.named
    if not state.verdicts:
        if was.verdicts or chips is not was.chips or hands is not was.hands or coins is not was.coins \
                or not was.hand_sizes or len(sizes) != len(was.hand_sizes):
            return plain_players(state), ()
        # only hand sizes changed (a draw, a put): every other entry stays as it is
        return [p if old_size is size else {**p, "hand_size": size}
                for p, old_size, size in zip(players, was.hand_sizes, sizes)], ()
    if not was.verdicts or len(players) != state.seats:
        return _players(state)
    seats = _rows(chips, was.chips) | _rows(sizes, was.hand_sizes) | _rows(hands, was.hands)
    seats |= _rows(coins, was.coins) | _rows(state.verdicts, was.verdicts) | _rows(state.credit_drawn, was.credit_drawn)
    players = list(players)
    for s in seats:
        players[s] = player(state, s, False)
    if hands is was.hands and state.credit_drawn is was.credit_drawn:
        return players, old.named  # the same hands and credit draws shown (an award or a returned chip changed)
    return players, tuple([c for p in players for c in (*p["hand"], *p["credit_drawn"])])


def _last_round(result: RoundResult | None, was: RoundResult | None = None,
                old: Built | None = None) -> tuple[dict[str, Json] | None, tuple[str, ...]]:
    """`last_round_view(result)` and the cards its hands and credit draws name, in order; its players those
    of `was` (shown in `old`) while their results are the same objects (an award or a returned chip changes
    only the round's tail)."""
    if result is None:
        return None, ()
    if (old is not None and was is not None and result.verdicts is was.verdicts and result.coins is was.coins
            and result.hands is was.hands and result.credit_drawn is was.credit_drawn):
        return last_round_view(result, old.view["last_round"]["players"]), old.named_last
    players = round_players(result)
    return last_round_view(result, players), tuple([c for p in players for c in (*p["hand"], *p["credit_drawn"])])


def _log_from(state: State, was: State, old: Built, view: dict[str, Json]) -> dict[str, Json]:
    """This round's public log set in `view`, extended from the last publish's when the log grew from its
    log in the same round; gives the catalogue entries of the cards it names."""
    log, start = state.log, state.round_log
    if log is was.log and start == was.round_log:
        return old.in_log
    if start == was.round_log and log.starts_with(was.log):
        done = max(len(was.log), start)
        if len(log) == done:
            return old.in_log
        rendered, in_log = _render(log.tail(len(log) - done), state.cfg.catalogue, old.view["log"], old.in_log)
    else:
        rendered, in_log = _render(log.tail(len(log) - start), state.cfg.catalogue, [], {})
    view["log"] = rendered
    return in_log


def _render(entries: Sequence[LogEntry], catalogue: JsonObject, rendered: list[dict[str, Json]],
            in_log: dict[str, Json]) -> tuple[list[dict[str, Json]], dict[str, Json]]:
    """`rendered` extended by the public ones of `entries` as `log_view` renders them, and `in_log` by the
    catalogue entries of the cards they name (the same objects when nothing is added)."""
    new, named = render(entries, catalogue)
    if not new:
        return rendered, in_log
    if not named:  # most entries name no card
        return rendered + new, in_log
    added = {c: entry for c, entry in named.items() if c not in in_log}
    return rendered + new, {**in_log, **added} if added else in_log


def _card_info(state: State, named: tuple[str, ...], named_last: tuple[str, ...],
               in_log: JsonObject) -> dict[str, Json]:
    """`cfg.entries(named + named_last + every card id the log names)`, given the log's entries in the order
    first named."""
    out = state.cfg.entries([*named, *named_last])
    for card_id, entry in in_log.items():
        out.setdefault(card_id, entry)
    return out


def part(state: State, seat: int, public: JsonObject, choice: JsonObject) -> dict[str, Json]:
    """`private_part(seat_own(state, seat, public), public)` (`choice`: `cfg.choice_entries` as a plain dict):
    of a seat's own fields the public view has only the catalogue entries, dropped where they are the same
    (every entry a seat adds is its card's catalogue entry, so the same keys are the same entries)."""
    known, complete = own_hand(state, seat)
    drawn = list(state.credit_drawn[seat]) if state.credit_drawn else []
    shown = public["card_info"]
    card_info = {**shown, **state.cfg.entries(private_cards(state, seat) + known + drawn), **choice}
    own: dict[str, Json] = {} if len(card_info) == len(shown) else {"card_info": card_info}
    own["seat"] = seat
    own["chip_values"] = list(state.chips[seat])
    own["hand"] = known
    own["hand_complete"] = complete
    own["credit_drawn"] = drawn
    return own


class BossWalletReuse(Reuse[State]):
    """Each publish's views rebuilt from the last one's pieces (`views`)."""

    def views_since(self, rules: Rules[State], state: State, last: Published[State] | None) -> tuple[Views, Any]:
        """`views(state, last)`."""
        return views(state, last)


REUSE = BossWalletReuse()
"""How the table's publish reuses the last one's views."""
