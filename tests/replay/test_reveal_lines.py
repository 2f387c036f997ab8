"""The reveal lines of every game: none before the end, worded in both languages after it, pure of the record."""

from __future__ import annotations

import random
import re

import pytest

from companion.games import game_names, get_rules
from companion.games.registry import get_game
from companion.games.playout import random_playout
from companion.games.timeline import CHECKPOINT_EVERY, Record, StepError, card_catalogue, every_step
from companion.web import texts
from companion.web.history import Played, stats, stats_csv

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("game", game_names())
def test_lines_open_only_once_the_game_is_over_and_each_has_words(game: str) -> None:
    rules = get_rules(game)
    flat = {lang: texts.flatten(texts.load(lang)) for lang in ("en", "ko")}
    codes: set[str] = set()
    for seed in range(3):
        seats = get_game(game).demo_seats
        result = random_playout(rules, seats, random.Random(seed))
        record = Record(game, seats, {}, result.actions)
        half = record.state_at(len(result.actions) // 2)
        assert rules.reveal(half) == [] and rules.winning_sides(half) == []
        assert rules.reveal(half, ended=True) == rules.reveal(half, ended=True)  # a pure function of the record
        _, lines, _ = record.final()
        for line in lines:
            codes.add(line["code"])
            for lang in ("en", "ko"):
                text = flat[lang][f"replay.lines.{game}.{line['code']}"]
                assert set(PLACEHOLDER.findall(text)) <= set(line["params"]), (lang, text, line)
    assert codes, f"no reveal line in three games of {game}"


def test_secret_hitler_sessions_match_the_policies_enacted() -> None:
    rules = get_rules("secret_hitler")
    result = random_playout(rules, 6, random.Random(8))
    lines = rules.reveal(result.state)
    view = rules.view(result.state, None)
    enacted = [l["params"]["policy"] for l in lines if l["code"] in ("session", "chaos")]
    assert (enacted.count("L"), enacted.count("F")) == (view["liberal_policies"], view["fascist_policies"])
    assert rules.winning_sides(result.state) in (["liberal"], ["fascist"])


def test_a_step_outside_the_record_or_a_record_that_no_longer_replays_is_a_refusal() -> None:
    result = random_playout(get_rules("gangsters_dilemma"), 4, random.Random(1))
    record = Record("gangsters_dilemma", 4, {}, result.actions)
    for bad in (-1, len(result.actions) + 1, True):
        with pytest.raises(StepError) as info:
            record.state_at(bad)  # type: ignore[arg-type]
        assert info.value.code == "bad_step"
    broken = Record("gangsters_dilemma", 4, {}, result.actions[:3] + ({"type": "nonsense", "seat": 0},))
    with pytest.raises(StepError) as info:
        broken.final()
    assert info.value.code == "unreplayable"
    assert every_step(record) == len(result.actions) + 1
    assert card_catalogue(record) == {}
    long = random_playout(get_rules("secret_hitler"), 8, random.Random(2))
    assert len(long.actions) > 2 * CHECKPOINT_EVERY
    record = Record("secret_hitler", 8, {}, long.actions)
    marks = record.checkpoints()
    assert len(marks) == len(long.actions) // CHECKPOINT_EVERY + 1
    for k in (0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY + 3, len(long.actions)):
        assert record.step(k, marks) == record.step(k)


def test_boss_wallet_catalogue_names_every_card_the_timeline_shows() -> None:
    result = random_playout(get_rules("boss_wallet"), 3, random.Random(3))
    catalogue = card_catalogue(Record("boss_wallet", 3, {}, result.actions))
    shown = {c for a in result.actions for key in ("paid", "cards") for c in a.get(key, ())}
    shown |= {a["id_card"] for a in result.actions if "id_card" in a}
    assert shown <= set(catalogue)


def test_history_counts_and_a_spreadsheet_never_runs_a_seat_name() -> None:
    games = [Played("secret_hitler", 5, 100, 600.0, (0, 2), "liberal_policies", ("liberal",)),
             Played("secret_hitler", 5, 50, 300.0, (1,), "hitler_elected", ("fascist",)),
             Played("secret_hitler", 5, 10, 60.0, (), None, ())]
    [row] = stats(games)
    assert (row["played"], row["abandoned"], row["average_actions"], row["average_minutes"]) == (2, 1, 75.0, 7.5)
    assert row["wins_by_side"] == {"fascist": 1, "liberal": 1} and row["wins_by_seat"] == {"0": 1, "1": 1, "2": 1}
    csv = stats_csv([row], ["=HYPERLINK(1)", "Bo"])
    assert "secret_hitler,wins_by_seat,'=HYPERLINK(1),1" in csv and "secret_hitler,wins_by_seat,seat 3,1" in csv
