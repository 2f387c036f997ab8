"""Two tables that differ only in hidden facts, driven by the same public inputs: every public byte they put out
must be the same. Only what is public and legitimately different is normalised first: each process's boot id,
the ids each table gives cards (a secret per table; mapped back to the card's printed label), and readers'
poll counts. Each step also checks the outputs directly: no tag UID anywhere, no refusal code the game does
not declare public, no host-only event on the public stream.
"""

from __future__ import annotations

import copy
import difflib
import json
import random
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from companion.games import CHANCE, Refusal
from companion.games.rules import private_part
from companion.hal.events import TagPlaced, TagRemoved
from companion.table.cards import card_id
from companion.table.core.outputs import ballot_id
from companion.table.core.refusals import TABLE_PUBLIC_CODES
from companion.table.runtime import Runtime
from companion.table.session import auto_chance
from tests.leaks.recorder import Recorder

CARD_ID = re.compile(r"c[0-9a-f]{12}")
POLLS = re.compile(r'"polls": \d+')
BALLOT_ID = re.compile(r"\b(\d+)\.[0-9a-f]{12}\b")
HEARTBEAT = ": heartbeat\n\n"
SAMPLES = 40
"""Other draws of a chance action tried at twin B when no variant of A's draw shows alike and differs."""
HOST_ONLY = ("enroll_seen", "card_enrolled", "guide", "terminal", "health")
VIEWER_KEYS = {"seat", "viewer", "you"}


@dataclass
class Table:
    """One of the twins: its runtime, its recorder, and the UIDs its cards have (by printed label)."""

    rt: Runtime
    rec: Recorder
    rng: random.Random
    uids: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    _labels: tuple[Any, dict[str, str]] = ((), {})
    _ballots: dict[str, str] = field(default_factory=dict)
    _numbered: dict[int, int] = field(default_factory=dict)

    @property
    def session(self) -> Any:
        session = self.rt.loop.session
        assert session is not None
        return session

    def labels(self) -> dict[str, str]:
        """Card id (in every game this table played) -> the card's label."""
        last = self.rt.journal.next_game_id()
        if self._labels[0] != (last, len(self.uids)):
            key = self.rt.cards.card_key()
            self._labels = ((last, len(self.uids)), {card_id(key, game, uid): label for label, uid in self.uids.items()
                                                     for game in range(1, last)})
        return self._labels[1]

    def normalise(self, text: str, is_json: bool = False) -> str:
        """`text` with this table's boot id, card ids and poll counts replaced by what both twins share (a JSON
        text is read, renamed and written again with its keys sorted: by the cards' labels, not their ids)."""
        labels = self.labels()
        text = text.replace(self.rt.loop.bus.boot, "BOOT").replace(HEARTBEAT, "")
        text = CARD_ID.sub(lambda m: f"card<{labels.get(m.group(0), m.group(0))}>", text)
        text = POLLS.sub('"polls": 0', text)
        text = BALLOT_ID.sub(self._ballot, text)
        return json.dumps(json.loads(text), sort_keys=True) if is_json else text

    def _ballot(self, match: re.Match[str]) -> str:
        """A ballot id as its number in its game (ids are keyed by a secret drawn at each start of a table)."""
        found = self._ballots.get(match.group(0))
        if found is None:
            game, key = int(match.group(1)), self.rt.loop._context.ballot_key  # noqa: SLF001 - the table's secret
            for n in range(self._numbered.get(game, 0) + 1, self.rt.loop._state.ballots + 2):  # noqa: SLF001
                self._ballots[ballot_id(key, game, n)] = f"ballot<{game}.{n}>"
                self._numbered[game] = n
            found = self._ballots.get(match.group(0), match.group(0))
        return found

    def tap(self, reader: str, uid: str) -> None:
        """A tag placed on a reader and taken away (as the reader's poller reports them)."""
        self.rt.loop.sink(TagPlaced(reader, uid))
        self.rt.loop.sink(TagRemoved(reader, uid))

    def host(self, command: str, **body: Any) -> Any:
        """A host command over HTTP, as the host page sends it: the JSON answer."""
        return self.rec.request("POST", f"/api/host/{command}", body, host=True)[2]

    def act(self, seat: int | None, action: dict[str, Any]) -> Any:
        """An action from a seat's phone (or the host's, seat None) over HTTP: the JSON answer."""
        if seat is None:
            return self.rec.request("POST", "/api/action", {"action": action}, host=True)[2]
        token = self.session.tokens[seat]
        return self.rec.request("POST", "/api/action", {"token": token, "action": action})[2]


@dataclass
class Twins:
    """Drive two tables in lockstep and compare what they show after every step."""

    a: Table
    b: Table
    private_seats: bool
    """Whether the seats' own outputs (pages, terminals) must match too: yes when only UIDs differ."""
    public_terminals: tuple[str, ...] = ()
    """Terminals bound to no seat: their screens are public."""
    steps: int = 0
    bytes_checked: int = 0
    log: list[str] = field(default_factory=list)

    @property
    def tables(self) -> tuple[Table, Table]:
        return self.a, self.b

    def both(self, what: str, do: Callable[[Table], Any], seat_pages: bool = False) -> list[Any]:
        """Do the same public thing at both tables, then compare the public output it caused."""
        results = [do(t) for t in self.tables]
        self.compare(what, seat_pages)
        return results

    def compare(self, what: str, seat_pages: bool = False) -> None:
        """This step's public output of both tables: checked, normalised and required equal."""
        outputs = []
        for t in self.tables:
            t.rec.settle()
            tokens = list(t.rt.loop.session.tokens) if seat_pages and t.rt.loop.session and self.private_seats else []
            raw = t.rec.step_output(tokens, None if self.private_seats else self.public_terminals)
            self.check(t, raw, what)
            outputs.append({k: t.normalise(v, is_json=k not in ("stream", "leds")) for k, v in raw.items()})
        for key in outputs[0]:
            if outputs[0][key] != outputs[1].get(key):
                raise AssertionError(f"step {self.steps} ({what}): the twins' {key} differ, so it depends on a "
                                     f"hidden fact:\n{diff(outputs[0][key], outputs[1].get(key, ''))}")
        self.bytes_checked += sum(len(v) for v in outputs[0].values()) * 2
        self.steps += 1
        self.log.append(what)
        for t in self.tables:
            t.rec.mark()

    def check(self, t: Table, out: dict[str, str], what: str) -> None:
        """No UID in any output; on the public stream, no code the game keeps private, no host-only event."""
        every = " ".join(out.values())
        for other in self.tables:
            for uid in [*other.uids.values(), *other.unknown]:
                assert uid not in every, f"step {self.steps} ({what}): UID {uid} in a public output"
        session = t.rt.loop.session
        allowed = set(TABLE_PUBLIC_CODES)
        if session is not None:
            allowed |= session.rules.public_codes | session.rules.public_binding_codes
        assert t.rec.public is not None
        for kind, data in t.rec.public.events(t.rec._mark["public"]):
            assert kind not in HOST_ONLY, f"step {self.steps} ({what}): host-only {kind} on the public stream"
            if kind == "rejected" and "code" in data:
                assert data["code"] in allowed, f"step {self.steps} ({what}): private code {data['code']} in public"
            if kind in ("rejected", "unknown_tag"):
                assert set(data) <= {"zone", "code"}, f"step {self.steps} ({what}): {kind} says {data}"


def diff(x: str, y: str) -> str:
    """The first lines where two outputs differ (JSON split at its commas)."""
    lines = difflib.unified_diff(x.replace(",", ",\n").splitlines(), y.replace(",", ",\n").splitlines(),
                                 "twin A", "twin B", n=2, lineterm="")
    return "\n".join(list(lines)[:40])


def translate(action: Any, source: Table, target: Table) -> Any:
    """An action of `source` with its card ids swapped for `target`'s ids of the same physical cards."""
    to_label, to_id = source.labels(), {v: k for k, v in target.labels().items()}
    text = CARD_ID.sub(lambda m: to_id.get(to_label.get(m.group(0), ""), m.group(0)), json.dumps(action))
    return json.loads(text)


# --- pairing: the same public move at two tables whose hidden facts differ ------------------------------------


def public(rules: Any, state: Any) -> str:
    """A state's public view as comparable text."""
    return json.dumps(rules.view(state, None), sort_keys=True)


def variants(action: dict[str, Any], most: int = 400) -> list[dict[str, Any]]:
    """`action` changed in one place each, in an order fixed by the action: two entries of one of its lists
    swapped (two seats' hands, roles or cards), then the action itself."""
    text = json.dumps(action, sort_keys=True)
    out: list[dict[str, Any]] = []
    seen = {text}

    def lists(value: Any) -> Iterable[list[Any]]:
        if isinstance(value, dict):
            for v in value.values():
                yield from lists(v)
        elif isinstance(value, list):
            yield value
            for v in value:
                yield from lists(v)

    order = random.Random(text)
    for i, found in enumerate(list(lists(action))):
        for x in range(len(found)):
            for y in range(x + 1, len(found)):
                copy_ = json.loads(text)
                target = list(lists(copy_))[i]
                target[x], target[y] = target[y], target[x]
                key = json.dumps(copy_, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append(copy_)
    order.shuffle(out)
    return out[:most] + [action]


@dataclass
class ChancePlan:
    """Deal twins' chance. Table A samples its chance with its own random draws; table B draws what A drew,
    changed where the change stays hidden: for each of A's chance actions, the first of its `variants` (or of
    other draws) that B's engine accepts and that leaves B's public view as A's, one that makes B's state
    differ if there is one. So the twins' hidden facts differ (other hands, roles, cards drawn) and their
    public ones never; a draw that nothing matches is drawn at B as it comes (the twins part, and the test
    deals them a new game)."""

    a: Table
    b: Table
    drawn: list[tuple[dict[str, Any], str]] = field(default_factory=list)

    def install(self, monkeypatch: Any) -> None:
        """Draw the tables' chance through this plan (the table core's two callers of `auto_chance`)."""
        from companion.table.core import host, play
        monkeypatch.setattr(play, "auto_chance", self.auto_chance)
        monkeypatch.setattr(host, "auto_chance", self.auto_chance)

    def auto_chance(self, session: Any, state: Any, rng: random.Random) -> tuple[Any, list[dict[str, Any]], Any]:
        """`session.auto_chance` as each twin draws it."""
        if rng is self.b.rng:
            return self.follow(session, state, self.drawn, rng)
        done = auto_chance(session, state, rng)
        if rng is self.a.rng:
            self.drawn = self.record(session.rules, state, done[1])
        return done

    @staticmethod
    def record(rules: Any, state: Any, sampled: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
        """Each chance action with the public view it left."""
        out = []
        for action in sampled:
            state = rules.apply(state, action)
            out.append((action, public(rules, state)))
        return out

    def follow(self, session: Any, state: Any, drawn: list[tuple[dict[str, Any], str]],
               rng: random.Random) -> tuple[Any, list[dict[str, Any]], Any]:
        """B's chance after A's `drawn` (its own draws taken back by an undo tried first)."""
        rules, physical = session.rules, session.binding.chance_is_physical
        reserved = list(session.reserved_chance)
        out: list[dict[str, Any]] = []
        for action, shown in drawn:
            if rules.to_act(state) != frozenset({CHANCE}) or physical(state, session.components):
                break
            try:
                same = rules.apply(state, action)  # what A's own draw would do here: a variant should differ
            except Refusal:
                same = None
            chosen = None
            others = [rules.sample_chance(state, random.Random(k)) for k in range(SAMPLES)]  # other draws
            for candidate in reserved[:1] + variants(action) + others:
                try:
                    after = rules.apply(state, candidate)
                except Refusal:
                    continue
                if public(rules, after) == shown:
                    if chosen is None:
                        chosen = (candidate, after)
                    if after != same:
                        chosen = (candidate, after)
                        break
            if chosen is None:
                break
            if reserved and chosen[0] is reserved[0]:
                reserved.pop(0)
            state = chosen[1]
            out.append(chosen[0])
        rest = replace(session, reserved_chance=tuple(reserved))
        state, more, left = auto_chance(rest, state, rng)  # nothing more is due, unless the twins part here
        return state, out + more, left

    def public_after(self, t: Table, action: dict[str, Any], drawn: list[tuple[dict[str, Any], str]] | None
                     ) -> tuple[str, list[tuple[dict[str, Any], str]]] | None:
        """The public view after `action` at table `t` and the chance it would draw there (A: with a copy of
        its random draws; B: following `drawn`), and what A drew; None when refused."""
        session = t.session
        try:
            state = session.rules.apply(session.state, action)
            if t is self.a:
                after, sampled, _ = auto_chance(session, state, copy.deepcopy(t.rng))
                drawn = self.record(session.rules, state, sampled)
            else:
                after = self.follow(session, state, drawn or [], copy.deepcopy(t.rng))[0]
        except Refusal:
            return None
        return public(session.rules, after), drawn or []


def pair(twins: Twins, plan: ChancePlan, rng: random.Random,
         tries: int = 12) -> tuple[int, dict[str, Any], dict[str, Any]] | None:
    """A seat to act and an action for each table that leave both public views equal, or None."""
    a, b = twins.a, twins.b
    acting = sorted(a.session.rules.to_act(a.session.state) - {CHANCE})
    rng.shuffle(acting)
    for seat in acting:
        mine = a.session.rules.legal_actions(a.session.state, seat)
        theirs = b.session.rules.legal_actions(b.session.state, seat)
        for x in rng.sample(mine, min(tries, len(mine))):
            want = plan.public_after(a, x, None)
            if want is None:
                continue
            others = rng.sample(theirs, min(3 * tries, len(theirs)))
            # another move at B where it shows alike (a secret choice), or the same one
            for y in (others + [x] if rng.random() < 0.5 else [x] + others):
                got = plan.public_after(b, y, want[1])
                if got is not None and got[0] == want[0]:
                    return seat, x, y
    return None


def refused_by_both(twins: Twins, rng: random.Random) -> dict[str, Any] | None:
    """An action both engines refuse (another seat's move, a field from another move, a move of the other
    twin), with the refusals' codes checked: a code the game calls public must not depend on a hidden fact."""
    a, b = twins.a, twins.b
    rules = a.session.rules
    pool = [x for s in range(a.session.seats) for t in (a, b) for x in t.session.rules.legal_actions(t.session.state, s)]
    if not pool:
        return None
    candidates = []
    for x in rng.sample(pool, min(8, len(pool))):
        candidates.append(x)
        candidates.append({**x, "seat": rng.randrange(a.session.seats)})
        other = rng.choice(pool)
        for k, v in other.items():
            if k not in ("type", "seat") and k in x:
                candidates.append({**x, k: v})
    rng.shuffle(candidates)
    for x in candidates:
        codes = []
        for t in (a, b):
            try:
                t.session.rules.apply(t.session.state, x)
            except Refusal as exc:
                codes.append(exc.code)
        if len(codes) == 2:
            if codes[0] in rules.public_codes or codes[1] in rules.public_codes:
                assert codes[0] == codes[1], (f"{rules.name} calls {codes[0]!r}/{codes[1]!r} public, but the same "
                                              f"action {x} is refused with either as hidden facts differ")
            return x
    return None


def seat_secrets(t: Table) -> tuple[set[tuple[str, str]], list[set[tuple[str, str]]]]:
    """What the public view shows, and each seat's secret (key, value) pairs beyond it."""
    rules, state = t.session.rules, t.session.state
    public = rules.view(state, None)
    shown = pairs(public)
    own = []
    for s in range(t.session.seats):
        own.append(secrets_of(private_part(rules.view(state, s), public)) - shown)
    return shown, own


def secrets_of(private: dict[str, Any]) -> set[tuple[str, str]]:
    """A seat's secret pairs, leaving out values too plain to be evidence (None, false, 0, empty) and who looks."""
    return {(k, json.dumps(v, sort_keys=True)) for k, v in private.items()
            if v not in (None, False, 0, "", [], {}) and k not in VIEWER_KEYS}


def pairs(value: Any) -> set[tuple[str, str]]:
    """Every (key, canonical JSON value) of every object nested in `value`."""
    out: set[tuple[str, str]] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add((str(k), json.dumps(v, sort_keys=True)))
            out |= pairs(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= pairs(v)
    return out


def check_seat_channels(t: Table, log_text: str) -> None:
    """Each seat's own outputs (its page, its terminal's last prompt) carry no other seat's secret it does
    not see itself; the log lines none at all."""
    if t.session.rules.outcome(t.session.state) is not None:
        return
    rules, state = t.session.rules, t.session.state
    public, secrets = seat_secrets(t)
    everyone = set().union(*secrets)
    for k, v in everyone:
        assert f'"{k}": {v}' not in log_text and f"'{k}': {v}" not in log_text, f"log lines carry {k}={v}"
    hub = t.rt.hardware.mock_terminals  # type: ignore[attr-defined]
    for s in range(t.session.seats):
        own = pairs(rules.view(state, s)) | public | pairs(rules.legal_actions(state, s))
        forbidden = set().union(*(secrets[o] for o in range(t.session.seats) if o != s)) - own
        page = t.rec.request("GET", f"/api/seat/{t.session.tokens[s]}")[2]
        leaked = pairs({"page": page, "terminal": hub.last_prompt(f"T{s}")}) & forbidden
        assert not leaked, f"seat {s}'s outputs carry another seat's secrets {leaked}"


def uids(rng: random.Random, n: int, avoid: Iterable[str] = ()) -> list[str]:
    """n distinct 4-byte UIDs as the readers spell them."""
    taken = set(avoid)
    out: list[str] = []
    while len(out) < n:
        uid = f"{rng.getrandbits(32):08X}"
        if uid not in taken:
            taken.add(uid)
            out.append(uid)
    return out
