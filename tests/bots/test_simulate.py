"""`companion simulate` with bots: seats, teams and the other players; bad arguments refused in words."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["simulate", *args])
    return code, capsys.readouterr().out


def test_a_team_of_bots_against_the_trust_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "secret_hitler", "--seats", "7", "--games", "20", "--seed", "1", "--bots", "liberal",
                    "--others", "trust", "--json")
    report = json.loads(out)
    assert code == 0 and report["bots"] == "liberal" and report["others"] == "trust"
    assert sum(report["sides"].values()) == 20 and sum(report["outcomes"].values()) == 20
    assert report["bot_wins"]["games"] == 20 and report["bot_wins"]["wins"] == report["sides"].get("liberal", 0)
    assert report["bot_wins"]["low"] <= report["bot_wins"]["rate"] <= report["bot_wins"]["high"]
    assert len(report["seat_wins"]) == 7


def test_bots_in_named_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "thief_of_baghdad", "--seats", "3", "--games", "2", "--bots", "0,2", "--json")
    report = json.loads(out)
    assert code == 0 and report["bots"] == [0, 2] and report["bot_wins"]["games"] == 4
    assert sum(report["seat_wins"]) == 2  # one winner a game


def test_the_same_seed_plays_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("gangsters_dilemma", "--seats", "4", "--games", "3", "--seed", "9", "--bots", "all", "--json")
    first, second = json.loads(run(capsys, *args)[1]), json.loads(run(capsys, *args)[1])
    assert (first["seat_wins"], first["actions"]) == (second["seat_wins"], second["actions"])


def test_words_not_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "boss_wallet", "--seats", "3", "--games", "2", "--bots", "1")
    assert code == 0 and "wins by seat" in out and "of their seat-games (95% interval)" in out


@pytest.mark.parametrize(("args", "said"), [
    (("boss_wallet", "--seats", "4", "--others", "trust"), "error: unknown_bot: no 'trust' player for boss_wallet"),
    (("boss_wallet", "--seats", "4", "--bots", "7"), "error: bad_seats: --bots: no seat 7 in a 4-seat game"),
    (("boss_wallet", "--seats", "4", "--bots", "liberal"), "error: bad_seats: --bots takes seat numbers 0..3"),
    (("secret_hitler", "--seats", "4"), "error: secret_hitler takes 5..10 seats"),
])
def test_bad_arguments_are_refused_in_words(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                            said: str) -> None:
    code, out = run(capsys, *args)
    assert code == 2 and out.startswith(said), out


def test_an_unknown_kind_of_player_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "secret_hitler", "--seats", "5", "--others", "genius"])
    assert exited.value.code == 2 and "invalid choice: 'genius'" in capsys.readouterr().err
