"""Drive a Secret Hitler table through mock hardware only: buttons, ballot cards, policy tiles, terminals."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.games.contract import CHANCE
from companion.table.runtime import Runtime
from tests.table.helpers import enroll, hw, tap

SECRET_KEYS = frozenset({"role", "roles", "hand", "party", "known", "peek", "investigations"})


def ballot_uid(seat: int, vote: str) -> str:
    return f"BA{seat:02d}{0 if vote == 'ja' else 1}000"


def tile_uid(value: str, i: int) -> str:
    return f"7{'1' if value == 'L' else '2'}{i:06d}"


def enroll_sh_cards(rt: Runtime, seats: int) -> None:
    """Ballot cards for every seat, and the 17 policy tiles."""
    for seat in range(seats):
        for vote in ("ja", "nein"):
            enroll(rt, ballot_uid(seat, vote), "ballot", vote, game="secret_hitler")
    for i in range(6):
        enroll(rt, tile_uid("L", i), "policy", "L", game="secret_hitler")
    for i in range(11):
        enroll(rt, tile_uid("F", i), "policy", "F", game="secret_hitler")


def secret_keys(obj: Any) -> set[str]:
    """Keys anywhere in a JSON value that would carry a secret."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in SECRET_KEYS:
                found.add(k)
            found |= secret_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= secret_keys(v)
    return found


@dataclass
class Driver:
    """Plays random legal moves, each through a physical input."""

    rt: Runtime
    rng: random.Random
    hidden_vote_checks: int = 0
    inputs: dict[str, int] = field(default_factory=dict)

    def step(self) -> None:
        loop = self.rt.loop
        session = loop.session
        assert session is not None
        rules, state = session.rules, session.state
        acting = rules.to_act(state)
        if acting == frozenset({CHANCE}):
            self._tap_tiles()
            return
        seat = self.rng.choice(sorted(acting))
        legal = rules.legal_actions(state, seat)
        action = self.rng.choice(legal)
        if action["type"] == "vote":
            if self.rng.random() < 0.5:
                self._count("button")
                hw(self.rt).press(seat, action["vote"])
                loop.wait_idle()
            else:
                self._count("ballot")
                tap(self.rt, f"r{seat}", ballot_uid(seat, action["vote"]))
            self._check_hidden_votes()
            return
        if action["type"] == "enact" and session.components == "physical" and self.rng.random() < 0.5:
            self._count("board_tile")
            tap(self.rt, "board", tile_uid(action["policy"], 0))
            return
        self._count("terminal")
        hub = hw(self.rt).mock_terminals
        prompt = hub.last_prompt(f"T{seat}")
        assert prompt is not None and prompt["type"] == "prompt", (seat, prompt)
        index = [o["action"] for o in prompt["options"]].index(action)
        hub.choose(f"T{seat}", prompt["ballot"], index)
        loop.wait_idle()

    def _tap_tiles(self) -> None:
        session = self.rt.loop.session
        assert session is not None
        sample = session.rules.sample_chance(session.state, self.rng)
        view = session.rules.view(session.state, None)
        reader = "board" if len(sample["policies"]) == 1 else f"r{view['president']}"
        used = {"L": 0, "F": 0}
        for value in sample["policies"]:
            self._count("draw_tile")
            tap(self.rt, reader, tile_uid(value, used[value]))
            used[value] += 1

    def _check_hidden_votes(self) -> None:
        """Before the reveal, a seat that voted ja and one that voted nein light up the same."""
        session = self.rt.loop.session
        assert session is not None
        view = session.rules.view(session.state, None)
        if view.get("phase") != "vote" or any(v is not None for v in view["votes"]):
            return
        cast = {}
        for action in reversed(session.actions):
            if action["type"] == "nominate":
                break
            if action["type"] == "vote":
                cast.setdefault(action["seat"], action["vote"])
        if len(set(cast.values())) < 2:
            return
        assert self.rt.renderer.wait_rendered()
        frame = hw(self.rt).mock_strip.last()
        assert frame is not None
        zones = {z.zone: z for z in self.rt.config.leds.zones}
        looks = {vote: {frame[zones[f"seat:{s}"].start] for s, v in cast.items() if v == vote} for vote in ("ja", "nein")}
        assert looks["ja"] == looks["nein"] and len(looks["ja"]) == 1, looks
        self.hidden_vote_checks += 1

    def _count(self, kind: str) -> None:
        self.inputs[kind] = self.inputs.get(kind, 0) + 1
