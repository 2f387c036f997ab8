"""One error root: every refusal a user can meet is a CompanionError with a stable code, and also the builtin it
refines (gpiozero's exc.py style), so code that only knows the builtin still catches it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion import errors
from companion.config import ConfigError
from companion.errors import CompanionError
from companion.hal import BackendError, ReaderError
from companion.hal.leds import LedError
from companion.hal.terminal_protocol import ProtocolError, decode
from companion.table.cards import CardError, normalise_uid
from companion.table.refusal import Refusal
from companion.web.errors import ApiError

CODE = re.compile(r"^[a-z][a-z0-9_]*$")

INSTANCES = [
    (Refusal("not_your_turn"), ValueError),
    (ConfigError("config_type", "game.seats", "expected an integer"), ValueError),
    (CardError("bad_uid", "not hex"), ValueError),
    (ProtocolError("bad_json", "not JSON"), ValueError),
    (Refusal("no_game", "No game is running."), ValueError),
    (ApiError("bad_field", "field 'x' must be a string"), ValueError),
    (errors.JournalError(message="locked"), OSError),
    (errors.DeviceError(message="no chip"), OSError),
    (ReaderError("no interrupt within 30 ms", "reader_stuck"), OSError),
    (LedError("led_spi_unavailable", "spidev is missing"), OSError),
    (BackendError("gpio_busy", "GPIO17 is busy"), ValueError),
]


@pytest.mark.parametrize("exc, builtin", INSTANCES, ids=lambda v: type(v).__name__)
def test_every_refusal_is_of_the_root_and_of_its_builtin(exc: CompanionError, builtin: type) -> None:
    assert isinstance(exc, CompanionError) and isinstance(exc, builtin)
    assert CODE.match(exc.code) and exc.message


def test_every_class_in_the_root_module_has_a_stable_default_code_and_a_builtin() -> None:
    classes = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, CompanionError)]
    assert len(classes) >= 8
    for cls in classes:
        assert CODE.match(cls.code), cls
        assert cls("").code == cls.code, "no code given: the class's own"
        if cls not in (CompanionError, errors.RefusedError):
            assert set(cls.__mro__) & {ValueError, OSError}, f"{cls.__name__} also inherits the builtin it refines"


def test_codes_and_messages_survive_raising() -> None:
    with pytest.raises(ValueError) as err:
        normalise_uid("zz")
    assert isinstance(err.value, CompanionError) and err.value.code == "bad_uid"
    with pytest.raises(CompanionError) as perr:
        decode(b"{nope\n")
    assert perr.value.code == "bad_json"
    config = ConfigError("config_unknown_key", "web.prot", "unknown key (did you mean 'port'?)")
    assert (config.code, config.where, config.params) == ("config_unknown_key", "web.prot", {"where": "web.prot"})
    assert str(config) == "config_unknown_key: web.prot: unknown key (did you mean 'port'?)"
    assert str(Refusal("malformed", "bad")) == "malformed: bad"
    reader = ReaderError("VersionReg 0x00: no chip", "reader_absent")
    assert (reader.code, str(reader)) == ("reader_absent", "VersionReg 0x00: no chip"), "hal logs str() as the message"


def test_the_root_module_is_a_leaf() -> None:
    tree = ast.parse(Path(errors.__file__).read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("companion") or m.startswith(".")]


def test_refusals_compare_by_value() -> None:
    assert Refusal("busy", "later") == Refusal("busy", "later") != Refusal("busy", "now")
    assert len({Refusal("busy", "later"), Refusal("busy", "later")}) == 1
