"""The Secret Hitler engine: action vocabulary, phases, codes and dispatch (RULES.md section 1)."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.rules import Rules
from companion.games.schema import ActionSpec, Field, boolean, integer, list_of, one_of, seat
from companion.games.secret_hitler import chance, election, legislation, powers
from companion.games.secret_hitler.state import (
    DECK_L, JA, NEIN, ROLES, F, L, Phase, State, setup_for,
)
from companion.games.secret_hitler.views import public_view, seat_view

_POLICY = Field(one_of(L, F))
_POLICIES = Field(list_of(one_of(L, F)))
_TARGET = Field(seat())

# Checks are wrapped in Field here so parse_action need not wrap them on every call.
ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "deal": ActionSpec({"roles": Field(list_of(one_of(*ROLES))), "first_president": Field(integer())}, chance=True),
    "nominate": ActionSpec({"target": _TARGET}),
    "vote": ActionSpec({"vote": Field(one_of(JA, NEIN))}),
    "draw": ActionSpec({"policies": _POLICIES}, chance=True),
    "discard": ActionSpec({"policy": _POLICY}),
    "enact": ActionSpec({"policy": _POLICY}),
    "veto": ActionSpec({}),
    "veto_reply": ActionSpec({"agree": Field(boolean())}),
    "investigate": ActionSpec({"target": _TARGET}),
    "special_election": ActionSpec({"target": _TARGET}),
    "peek": ActionSpec({"policies": _POLICIES}, chance=True),
    "peek_done": ActionSpec({}),
    "execute": ActionSpec({"target": _TARGET}),
})

PHASES: Mapping[str, str] = MappingProxyType({
    Phase.DEAL.value: "Chance deals the roles and names the first presidential candidate.",
    Phase.NOMINATE.value: "The presidential candidate nominates a chancellor.",
    Phase.VOTE.value: "Every living seat votes ja or nein in secret; all votes are revealed with the last one.",
    Phase.DRAW.value: "Chance draws the three policy tiles of the legislative session.",
    Phase.DISCARD.value: "The president discards one of the three tiles in secret.",
    Phase.ENACT.value: "The chancellor enacts one of the two tiles (or proposes a veto once it is unlocked).",
    Phase.VETO_REPLY.value: "The president agrees to or refuses the chancellor's veto.",
    Phase.CHAOS.value: "Three failed elections: chance draws the top tile, which is enacted.",
    Phase.INVESTIGATE.value: "The president investigates one other living seat's party.",
    Phase.SPECIAL_ELECTION.value: "The president picks the next presidential candidate.",
    Phase.PEEK.value: "Chance reveals the top three tiles (in order) to the president.",
    Phase.PEEK_REVIEW.value: "The president looks at the top three tiles and confirms.",
    Phase.EXECUTE.value: "The president executes one other living seat.",
    Phase.GAME_OVER.value: "The game is over.",
})

CODES: Mapping[str, str] = MappingProxyType({
    "wrong_role_count": "The deal must give exactly one role to every seat.",
    "wrong_role_mix": "The deal does not match the role mix for this number of seats.",
    "first_president_out_of_range": "The first president must be one of the seats.",
    "wrong_draw_count": "A legislative session draws 3 tiles; chaos draws 1.",
    "impossible_draw": "The draw pile does not hold those tiles.",
    "draw_not_peeked": "The top tiles were peeked: the draw must be those tiles.",
    "wrong_peek_count": "A peek shows exactly 3 tiles.",
    "impossible_peek": "The draw pile does not hold those tiles on top.",
    "nominate_self": "The president cannot nominate themself.",
    "target_self": "The president cannot use a power on themself.",
    "target_dead": "That seat is dead.",
    "term_limited": "That seat is term-limited: it was in the last elected government.",
    "already_investigated": "That seat has already been investigated; nobody is investigated twice.",
    "policy_not_in_hand": "That tile is not in the hand.",
    "veto_locked": "The veto is unlocked only once five fascist policies are enacted.",
    "veto_already_refused": "The president refused the veto; the chancellor must enact a policy.",
})

LOG_CODES: Mapping[str, str] = MappingProxyType({
    "dealt": "Roles were dealt; {first_president} is the first presidential candidate.",
    "nominated": "President {president} nominated {chancellor} for chancellor.",
    "votes": "The votes were revealed; the government passed: {passed}. Election tracker: {election_tracker}.",
    "president_discard": "(to the president) You drew {drew} and discarded {policy}.",
    "chancellor_discard": "(to the chancellor) You received {received} and discarded {policy}.",
    "enacted": "A {policy} policy was enacted.",
    "chaos": "Three failed elections: the top policy, {policy}, was enacted.",
    "veto_proposed": "Chancellor {chancellor} proposed a veto.",
    "veto_refused": "President {president} refused the veto.",
    "veto_agreed": "President {president} agreed to the veto. Election tracker: {election_tracker}.",
    "reshuffled": "The draw and discard piles were shuffled together: {draw_pile} tiles to draw.",
    "investigated": "President {president} investigated {target}.",
    "party": "(to the president) {target} is a member of the {party} party.",
    "special_election": "President {president} chose {target} as the next presidential candidate.",
    "peeked": "President {president} looked at the top three policies.",
    "peek": "(to the president) The top three policies are {policies}.",
    "executed": "President {president} executed {target}.",
    "game_over": "The game is over ({reason}); winners: {winners}.",
})
"""Every log entry code with its English text (params in braces)."""

_ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.DEAL: frozenset({"deal"}),
    Phase.NOMINATE: frozenset({"nominate"}),
    Phase.VOTE: frozenset({"vote"}),
    Phase.DRAW: frozenset({"draw"}),
    Phase.CHAOS: frozenset({"draw"}),
    Phase.DISCARD: frozenset({"discard"}),
    Phase.ENACT: frozenset({"enact", "veto"}),
    Phase.VETO_REPLY: frozenset({"veto_reply"}),
    Phase.INVESTIGATE: frozenset({"investigate"}),
    Phase.SPECIAL_ELECTION: frozenset({"special_election"}),
    Phase.PEEK: frozenset({"peek"}),
    Phase.PEEK_REVIEW: frozenset({"peek_done"}),
    Phase.EXECUTE: frozenset({"execute"}),
    Phase.GAME_OVER: frozenset(),
})

_ALLOWED_BY_ID: Mapping[str, frozenset[str]] = MappingProxyType({p.value: a for p, a in _ALLOWED.items()})
_ONLY_CHANCE = frozenset({CHANCE})
_NOBODY: frozenset[int] = frozenset()
_SINGLE = tuple(frozenset({i}) for i in range(10))


class SecretHitler(Rules[State]):
    """Secret Hitler, 5-10 seats, as ruled in RULES.md section 1."""

    name = "secret_hitler"
    title = "Secret Hitler"
    min_seats = 5
    max_seats = 10
    actions = ACTIONS
    phases = PHASES
    own_codes = CODES
    log_codes = LOG_CODES
    option_defaults = MappingProxyType({"rebalance": False})

    def apply(self, state: State, action: Any) -> State:
        """The state after `action` (see Rules.apply). The most frequent actions, when well-formed and from the
        seat to act in the right phase, take a shortcut past the generic parsing: they pass every check of the
        general path and reach the same function with the same arguments; anything else takes that path."""
        if type(action) is dict:
            kind, seat, phase = action.get("type"), action.get("seat"), state.phase
            if type(seat) is int:
                if kind == "vote" and phase is Phase.VOTE:
                    vote = action.get("vote")
                    if seat in state.pending and type(vote) is str and (vote == JA or vote == NEIN):
                        return election.apply_vote(state, seat, vote)
                elif kind == "nominate" and phase is Phase.NOMINATE and seat == state.president:
                    target = action.get("target")
                    if type(target) is int and 0 <= target < state.seats:
                        return election.apply_nominate(state, target)
                elif kind == "draw" and (phase is Phase.DRAW or phase is Phase.CHAOS) and seat == CHANCE:
                    policies = action.get("policies")
                    if type(policies) is list and all(type(p) is str and (p == L or p == F) for p in policies):
                        return chance.apply_draw(state, tuple(policies))
                elif (kind == "discard" and phase is Phase.DISCARD and seat == state.president) or (
                        kind == "enact" and phase is Phase.ENACT and seat == state.chancellor):
                    policy = action.get("policy")
                    if type(policy) is str and (policy == L or policy == F):
                        apply_tile = legislation.apply_discard if kind == "discard" else legislation.apply_enact
                        return apply_tile(state, policy)
        return super().apply(state, action)

    def seat_count(self, state: State) -> int:
        """How many seats the game has."""
        return state.seats

    def phase(self, state: State) -> str:
        """The current phase id."""
        return state.phase.value

    def allowed(self, state: State, seat: int) -> frozenset[str]:
        """Action types of the current phase."""
        return _ALLOWED_BY_ID[state.phase._value_]

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        if not isinstance(options["rebalance"], bool):
            raise ValueError(f"option 'rebalance' must be true or false, got {options['rebalance']!r}")
        return options

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        fascist, deck_f = setup_for(seats, options["rebalance"])
        return State(
            seats=seats, phase=Phase.DEAL, alive=(True,) * seats, votes=(None,) * seats,
            fascist=fascist, draw_l=DECK_L, draw_f=deck_f,
        )

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The JSON actions `apply` accepts from this seat now ([] for chance or a waiting seat)."""
        if seat == CHANCE or seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def _to_act(self, state: State) -> frozenset[int]:
        return self.to_act(state)

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now; {CHANCE} when chance must be supplied; empty when over."""
        # Overrides Rules.to_act without the extra call: it runs several times per action.
        phase = state.phase
        # Identity checks, most frequent first: Enum hashing is slow.
        if phase is Phase.VOTE:
            return state.pending
        if phase is Phase.ENACT:
            return _SINGLE[state.chancellor]
        if phase is Phase.DRAW or phase is Phase.CHAOS or phase is Phase.PEEK or phase is Phase.DEAL:
            return _ONLY_CHANCE
        if phase is Phase.GAME_OVER:
            return _NOBODY
        return _SINGLE[state.president]

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        phase = state.phase
        if phase is Phase.VOTE:
            return [{"type": "vote", "seat": seat, "vote": JA}, {"type": "vote", "seat": seat, "vote": NEIN}]
        if phase is Phase.NOMINATE:
            return [{"type": "nominate", "seat": seat, "target": t} for t in election.nominees(state)]
        if phase is Phase.DISCARD or phase is Phase.ENACT:
            kind = "discard" if phase is Phase.DISCARD else "enact"
            out = [{"type": kind, "seat": seat, "policy": p} for p in sorted(set(state.hand))]
            if kind == "enact" and legislation.veto_possible(state):
                out.append({"type": "veto", "seat": seat})
            return out
        if phase is Phase.VETO_REPLY:
            return [{"type": "veto_reply", "seat": seat, "agree": a} for a in (True, False)]
        if phase is Phase.INVESTIGATE:
            return [{"type": "investigate", "seat": seat, "target": t} for t in powers.investigable(state)]
        if phase is Phase.PEEK_REVIEW:
            return [{"type": "peek_done", "seat": seat}]
        kind = phase.value  # special_election or execute: any other living seat
        return [
            {"type": kind, "seat": seat, "target": t}
            for t in range(state.seats) if state.alive[t] and t != state.president
        ]

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        if state.phase is Phase.DEAL:
            return chance.sample_deal(state, rng)
        if state.phase is Phase.PEEK:
            return chance.sample_peek(state, rng)
        return chance.sample_draw(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return public_view(state, None) if seat is None else seat_view(state, seat)

    def _outcome(self, state: State) -> Outcome | None:
        return state.result

    # --- actions (already checked for shape, turn and phase by Rules.apply) -------------------

    def _apply_deal(self, state: State, a: dict[str, Any]) -> State:
        return chance.apply_deal(state, a["roles"], a["first_president"])

    def _apply_nominate(self, state: State, a: dict[str, Any]) -> State:
        return election.apply_nominate(state, a["target"])

    def _apply_vote(self, state: State, a: dict[str, Any]) -> State:
        return election.apply_vote(state, a["seat"], a["vote"])

    def _apply_draw(self, state: State, a: dict[str, Any]) -> State:
        return chance.apply_draw(state, a["policies"])

    def _apply_discard(self, state: State, a: dict[str, Any]) -> State:
        return legislation.apply_discard(state, a["policy"])

    def _apply_enact(self, state: State, a: dict[str, Any]) -> State:
        return legislation.apply_enact(state, a["policy"])

    def _apply_veto(self, state: State, a: dict[str, Any]) -> State:
        return legislation.apply_veto(state)

    def _apply_veto_reply(self, state: State, a: dict[str, Any]) -> State:
        return legislation.apply_veto_reply(state, a["agree"])

    def _apply_investigate(self, state: State, a: dict[str, Any]) -> State:
        return powers.apply_investigate(state, a["target"])

    def _apply_special_election(self, state: State, a: dict[str, Any]) -> State:
        return powers.apply_special_election(state, a["target"])

    def _apply_peek(self, state: State, a: dict[str, Any]) -> State:
        return chance.apply_peek(state, a["policies"])

    def _apply_peek_done(self, state: State, a: dict[str, Any]) -> State:
        return powers.apply_peek_done(state)

    def _apply_execute(self, state: State, a: dict[str, Any]) -> State:
        return powers.apply_execute(state, a["target"])


RULES = SecretHitler()
"""The engine instance the registry hands out."""
