"""The scenario checker itself: a check that should fail does fail."""

from companion.games.scenario import is_directive, subset_mismatch


def test_subset_matching() -> None:
    assert subset_mismatch({"a": 1}, {"a": 1, "b": 2}) is None
    assert subset_mismatch({"a": [1, {"x": 2}]}, {"a": [1, {"x": 2, "y": 3}]}) is None
    assert subset_mismatch({"a": 1}, {"a": 2})
    assert subset_mismatch({"a": [1]}, {"a": [1, 2]})
    assert subset_mismatch({"a": 1}, {"b": 1})
    assert subset_mismatch({"a": True}, {"a": 1})
    assert subset_mismatch({"a": None}, {"a": 0})


def test_directive_detection() -> None:
    assert is_directive({"expect": {}})
    assert is_directive({"#": "note"})
    assert not is_directive({"type": "vote", "seat": 0})
