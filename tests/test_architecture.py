"""The dependency direction of DESIGN.md, enforced by walking every module's AST."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "games": (
        "companion.hal", "companion.table", "companion.web", "companion.commands", "companion.cli",
        "flask", "waitress", "serial", "gpiozero", "spidev", "rpi_ws281x",
        "time", "datetime", "threading", "asyncio", "socket", "subprocess", "sqlite3", "os", "secrets",
    ),
    "hal": ("companion.games", "companion.table", "companion.web", "flask", "waitress"),
    "web": ("companion.hal", "gpiozero", "serial", "spidev", "rpi_ws281x"),
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every imported module name in a file, with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def modules(room: str) -> list[Path]:
    return sorted((ROOT / room).rglob("*.py")) if (ROOT / room).is_dir() else []


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_room_imports_only_what_it_may(room: str) -> None:
    bad = [
        f"{path.relative_to(ROOT.parent)}:{line} imports {name}"
        for path in modules(room)
        for line, name in imports_of(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[room])
    ]
    assert not bad, "\n".join(bad)


def test_games_use_no_global_random() -> None:
    """Engines get randomness only through the `random.Random` passed to `sample_chance`."""
    bad = []
    for path in modules("games"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                if node.attr != "Random":
                    bad.append(f"{path.name}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                bad += [f"{path.name}:{node.lineno} from random import {a.name}" for a in node.names if a.name != "Random"]
    assert not bad, "\n".join(bad)


def test_the_walker_catches_a_forbidden_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import flask\nfrom companion.hal import mock\nfrom . import x\n")
    assert [name for _, name in imports_of(probe)] == ["flask", "companion.hal"]
