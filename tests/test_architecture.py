"""The dependency direction of the architecture (README "Layout"), enforced by walking every module's AST.

games import nothing outside companion.games (but the shared error root) and no I/O; bots import only games
(and the error root), no I/O; hal imports no games, bots, table or web; web never reaches the table or the
hardware. Relative imports are resolved before they are
checked, and are refused anyway: every import in companion/ names its module in full.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"

SHARED_LEAF = "companion.errors"
"""The one project module every room may import: the error root (tests/test_errors.py holds it to being a leaf)."""

PROJECT_ROOMS = ("companion.games", "companion.bots", "companion.hal", "companion.table", "companion.web",
                 "companion.commands", "companion.bench", "companion.config", "companion.cli", "companion.supervisor",
                 "companion.ratelog", "companion.venue")
WEB_SHARED = ("companion.web.site", "companion.web.errors", "companion.web.listener", "companion.web.headers",
              "companion.web.hosts")
"""The web's parts the venue dashboard shares (where the page's files are, JSON errors, the listening socket, the
security headers, the Host and Origin check)."""

IO = ("flask", "waitress", "serial", "gpiozero", "spidev", "rpi_ws281x", "lgpio", "time", "datetime",
      "threading", "asyncio", "socket", "subprocess", "sqlite3", "os", "secrets", "multiprocessing")

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "games": tuple(r for r in PROJECT_ROOMS if r != "companion.games") + IO,
    "bots": tuple(r for r in PROJECT_ROOMS if r not in ("companion.games", "companion.bots")) + IO,
    "hal": ("companion.games", "companion.bots", "companion.table", "companion.web", "companion.commands", "companion.bench",
            "companion.cli", "flask", "waitress"),
    "web": ("companion.table", "companion.hal", "companion.commands", "companion.bench", "companion.cli",
            "companion.venue", "gpiozero", "serial", "spidev", "rpi_ws281x", "lgpio"),
    # the venue reads the public snapshot it is handed, never the table's or the hardware's insides
    "venue": ("companion.table", "companion.hal", "companion.commands", "companion.bench", "companion.cli",
              "companion.supervisor", "gpiozero", "serial", "spidev", "rpi_ws281x", "lgpio"),
}
"""Room -> module prefixes it may not import (`games` and `hal` may not import the venue either: see above)."""
VENUE_MAY_IMPORT_FROM_WEB = WEB_SHARED
VENUE_IMPORTERS = ("companion.table.runtime", "companion.commands", "companion.bench")
"""The only modules that may import companion.venue: the table's wiring, the commands, the benchmarks."""


def package_of(path: Path) -> list[str]:
    """The package a file of companion/ belongs to, as parts (companion/games/x.py -> companion, games)."""
    return list(path.relative_to(ROOT.parent).parts[:-1])


def imports_of(path: Path, package: list[str] | None = None) -> list[tuple[int, str, bool]]:
    """Every module a file imports, with its line and whether it was written relative (resolved to full);
    `package` places a file that lies outside companion/ (the tests' probes)."""
    package = package if package is not None else package_of(path)
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, False) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parent = package[: len(package) - (node.level - 1)]
                base = ".".join(parent + ([node.module] if node.module else []))
            if node.module:
                found.append((node.lineno, base, node.level > 0))
            # `from companion import table` / `from .. import hal` import the names as modules
            found += [(node.lineno, f"{base}.{alias.name}", node.level > 0) for alias in node.names]
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, arg.value, False))
    return found


def _is_dynamic_import(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def modules(room: str | None = None) -> list[Path]:
    base = ROOT / room if room else ROOT
    return sorted(base.rglob("*.py")) if base.is_dir() else []


def violations(path: Path, room: str, package: list[str] | None = None) -> list[str]:
    """Forbidden imports in one file of a room."""
    bad = []
    for line, name, _ in imports_of(path, package):
        if name == SHARED_LEAF or name.startswith(SHARED_LEAF + "."):
            continue
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[room]):
            bad.append(f"{path.name}:{line} imports {name}")
        elif room == "venue" and (name == "companion.web" or name.startswith("companion.web.")) and not any(
                name == w or name.startswith(w + ".") for w in WEB_SHARED):
            bad.append(f"{path.name}:{line} imports {name}")  # the venue shares only WEB_SHARED of the web
    return bad


def test_only_the_wiring_commands_and_benches_import_the_venue() -> None:
    bad = []
    for path in modules():
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        if module.startswith("companion.venue") or module.startswith(VENUE_IMPORTERS):
            continue
        bad += [f"{module}:{line} imports {name}" for line, name, _ in imports_of(path)
                if name == "companion.venue" or name.startswith("companion.venue.")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_room_imports_only_what_it_may(room: str) -> None:
    bad = [f"{room}/{v}" for path in modules(room) for v in violations(path, room)]
    assert not bad, "\n".join(bad)


def test_the_rate_limited_log_is_a_leaf() -> None:
    """hal, table and web all log through companion.ratelog: it imports nothing of the project (games, which do
    not log, may not import it)."""
    bad = [name for _, name, _ in imports_of(ROOT / "ratelog.py") if name.startswith("companion")]
    assert not bad, bad


def test_no_relative_imports() -> None:
    bad = [f"{path.relative_to(ROOT.parent)}:{line} imports {name} relatively"
           for path in modules() for line, name, relative in imports_of(path) if relative]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("room", ["games", "bots"])
def test_no_global_random(room: str) -> None:
    """Engines get randomness only through the `random.Random` passed to `sample_chance`, bots through the one
    passed to `decide`."""
    bad = []
    for path in modules(room):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                if node.attr != "Random":
                    bad.append(f"{path.name}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                bad += [f"{path.name}:{node.lineno} from random import {a.name}" for a in node.names if a.name != "Random"]
    assert not bad, "\n".join(bad)


def probe_file(tmp_path: Path, source: str) -> Path:
    """A probe module written outside the tree; the checks place it in a room by its package."""
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    return probe


@pytest.mark.parametrize(("room", "source", "caught"), [
    ("games", "from ..hal import events\n", "companion.hal"),
    ("games", "from .. import table\n", "companion.table"),
    ("games", "import companion.web.api as api\n", "companion.web.api"),
    ("games", "import importlib\nimportlib.import_module('companion.hal.mock')\n", "companion.hal.mock"),
    ("games", "from companion.config import TableConfig\n", "companion.config"),
    ("games", "import sqlite3\n", "sqlite3"),
    ("games", "from companion.bots import get_bot\n", "companion.bots"),
    ("bots", "from companion.table.session import Session\n", "companion.table.session"),
    ("bots", "import time\n", "time"),
    ("bots", "from ..web import facade\n", "companion.web"),
    ("hal", "from companion.bots import get_bot\n", "companion.bots"),
    ("hal", "from companion.table.loop import TableLoop\n", "companion.table.loop"),
    ("hal", "from ..games import registry\n", "companion.games.registry"),
    ("hal", "from companion.web import facade\n", "companion.web"),
    ("web", "from companion.table.session import Session\n", "companion.table.session"),
    ("web", "from companion import hal\n", "companion.hal"),
    ("web", "from ..table import loop\n", "companion.table"),
    ("web", "from companion.venue import board\n", "companion.venue"),
    ("venue", "from companion.table.loop import TableLoop\n", "companion.table.loop"),
    ("venue", "from companion.hal import mock\n", "companion.hal"),
    ("venue", "from companion.web.facade import TableFacade\n", "companion.web.facade"),
])
def test_the_walker_catches_a_forbidden_import(tmp_path: Path, room: str, source: str, caught: str) -> None:
    bad = violations(probe_file(tmp_path, source), room, ["companion", room])
    assert any(name.endswith(f"imports {caught}") for name in bad), bad


def test_the_walker_allows_the_shared_leaf_and_own_room(tmp_path: Path) -> None:
    probe = probe_file(tmp_path, "from companion.errors import CompanionError\nfrom companion.games import rules\n"
                                 "from .rules import Rules\n")
    assert violations(probe, "games", ["companion", "games"]) == []
    assert [(name, relative) for _, name, relative in imports_of(probe, ["companion", "games"])][-2:] == [
        ("companion.games.rules", True), ("companion.games.rules.Rules", True)]


TABLE_CORE = ROOT / "table" / "core"
"""The table's pure core (`step(state, input, ctx) -> (state, effects)`): no I/O, so no module that does I/O as
it loads either; the loop (companion/table/loop.py) and the effect runner do the I/O."""


def module_path(name: str) -> Path | None:
    """The file of a project module, None for anything else (a class imported by name, a library)."""
    if not name.startswith("companion"):
        return None
    base = ROOT.parent.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def load_time_imports(path: Path) -> list[str]:
    """The modules a file imports as it loads: module-level imports, not those inside functions nor under
    `if TYPE_CHECKING:`; with every parent package of each (importing a.b.c runs a/__init__ and a/b/__init__)."""
    found: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.append(node.module)
                found.extend(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)).body)
    out: list[str] = []
    for name in found:
        parts = name.split(".")
        out.extend(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def io_reached(path: Path, package: list[str] | None = None) -> list[str]:
    """Every I/O module a core file imports (anywhere in it) or pulls in as it loads, each with the chain of
    project modules that leads there."""
    bad: list[str] = []
    seen: set[str] = set()
    queue: list[tuple[str, tuple[str, ...]]] = []
    for _, name, _ in imports_of(path, package):
        queue.append((name, (path.name,)))
    while queue:
        name, chain = queue.pop()
        if name.split(".")[0] in IO:
            bad.append(" -> ".join((*chain, name)))
            continue
        found = module_path(name)
        if found is None or name in seen:
            continue
        seen.add(name)
        queue += [(n, (*chain, name)) for n in load_time_imports(found) for n in [n] if n != name]
        parts = name.split(".")
        queue += [(".".join(parts[:i]), chain) for i in range(1, len(parts))]
    return sorted(set(bad))


def test_the_table_core_imports_no_io() -> None:
    bad = [v for path in sorted(TABLE_CORE.glob("*.py")) for v in io_reached(path)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("source", "caught"), [
    ("import sqlite3\n", "sqlite3"),
    ("from companion.table.journal import Journal\n", "companion.table.journal -> sqlite3"),
    ("from companion.hal.buttons import ButtonBank\n", "gpiozero"),
    ("def later():\n    import time\n", "time"),
])
def test_the_core_rule_catches_a_planted_import(tmp_path: Path, source: str, caught: str) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    found = io_reached(probe, ["companion", "table", "core"])
    assert any(caught in line for line in found), found
