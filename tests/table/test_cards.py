"""Card registry: enrollment checks, deck export/import (API and CLI), bad decks change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.table.cards import CardError, CardRegistry, normalise_uid
from companion.table.journal import open_db


@pytest.fixture()
def registry(tmp_path: Path, tiny_game: None) -> CardRegistry:
    return CardRegistry(open_db(tmp_path / "t.db"))


def test_uids_are_normalised_and_checked() -> None:
    assert normalise_uid("04:a1:b2:c3") == "04A1B2C3"
    assert normalise_uid("04 A1 B2 C3 D4 E5 F6") == "04A1B2C3D4E5F6"
    for bad in ("04A1B2", "zz112233", 1234, None, "04A1B2C3D4"):
        with pytest.raises(CardError) as err:
            normalise_uid(bad)
        assert err.value.code == "bad_uid"


def test_enroll_checks_game_kind_and_value(registry: CardRegistry) -> None:
    card = registry.enroll({"uid": "04a1b2c3", "game": "tiny", "kind": "ballot", "value": "ja", "label": "Ja 1"})
    assert registry.get("04A1B2C3") == card and card.label == "Ja 1"
    for raw, hint in [({"uid": "04A1B2C4", "game": "nope", "kind": "ballot", "value": "ja"}, "unknown game"),
                      ({"uid": "04A1B2C4", "game": "tiny", "kind": "coin", "value": "ja"}, "no card kind"),
                      ({"uid": "04A1B2C4", "game": "tiny", "kind": "ballot", "value": "maybe"}, "one of"),
                      ({"uid": "04A1B2C4", "game": "tiny", "kind": "ballot", "value": "ja", "label": 5}, "label"),
                      ("not a card", "object")]:
        with pytest.raises(CardError) as err:
            registry.enroll(raw)  # type: ignore[arg-type]
        assert err.value.code == "bad_card" and hint in err.value.message
    assert registry.get("04A1B2C4") is None


def test_export_import_round_trip(tmp_path: Path, registry: CardRegistry, tiny_game: None) -> None:
    registry.enroll({"uid": "04A1B2C3", "game": "tiny", "kind": "ballot", "value": "ja"})
    registry.enroll({"uid": "04A1B2C3D4E5F6", "game": "tiny", "kind": "tile", "value": "F", "label": "Fascist 1"})
    deck = registry.export()
    other = CardRegistry(open_db(tmp_path / "other.db"))
    assert other.import_deck(json.loads(json.dumps(deck))) == 2
    assert other.export() == deck
    assert [c["label"] for c in deck["cards"]] == ["ballot ja", "Fascist 1"]


def test_a_bad_deck_imports_nothing(tmp_path: Path, registry: CardRegistry) -> None:
    good = {"uid": "04A1B2C3", "game": "tiny", "kind": "ballot", "value": "ja"}
    bad = {"uid": "04A1B2C5", "game": "tiny", "kind": "ballot", "value": "perhaps"}
    for deck, code in [({"format": "companion-deck", "version": 1, "cards": [good, bad]}, "bad_card"),
                       ({"format": "other", "version": 1, "cards": []}, "bad_deck"),
                       ({"format": "companion-deck", "version": 2, "cards": []}, "bad_deck"),
                       ({"format": "companion-deck", "version": 1, "cards": {}}, "bad_deck"),
                       ({"format": "companion-deck", "version": 1, "cards": [good, good]}, "bad_deck"),
                       ([], "bad_deck")]:
        with pytest.raises(CardError) as err:
            registry.import_deck(deck)
        assert err.value.code == code
    assert registry.all() == []
    assert CardRegistry(registry.conn).all() == []  # nothing reached the database either

