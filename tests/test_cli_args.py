"""Counts and durations a command cannot use are usage errors (exit 2, in words), not a traceback or a
nonsense figure later (`simulate --games -3` printed "-1593202.4 games/s")."""

from __future__ import annotations

import pytest

from companion.cli import build_parser, main


@pytest.mark.parametrize("argv, words", [
    (["bench", "--cpu-taps", "0"], "argument --cpu-taps: must be at least 1, not 0"),
    (["bench", "--pages", "many"], "argument --pages: not a whole number: 'many'"),
    (["bench", "--idle-s", "nan"], "argument --idle-s: must be a finite number of seconds, not nan"),
    (["bench", "--polling-s", "-1"], "argument --polling-s: must be a positive number of seconds, not -1"),
    (["simulate", "secret_hitler", "--seats", "7", "--games", "-3"], "argument --games: must be at least 1, not -3"),
    (["simulate", "secret_hitler", "--seats", "7", "--games", "0"], "argument --games: must be at least 1, not 0"),
    (["doctor", "--button-timeout", "inf"], "argument --button-timeout: must be a finite number of seconds, not inf"),
    (["doctor", "--button-timeout", "0"], "argument --button-timeout: must be a positive number of seconds, not 0"),
    (["doctor", "--live", "-1"], "argument --live: must be 0 or a positive number of seconds, not -1"),
    (["doctor", "--live", "soon"], "argument --live: not a number of seconds: 'soon'"),
])
def test_unusable_counts_and_durations_are_usage_errors(argv: list[str], words: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["doctor", "--live"], ["doctor", "--live", "0"], ["doctor", "--live", "2.5"],
                                  ["simulate", "secret_hitler", "--seats", "7", "--games", "1"]])
def test_usable_values_still_parse(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert args.handler is not None
