"""The parts of the docs that list the games, built from the registry: `python -m companion.catalogue` rewrites
them (`make docs` runs it) and tests/test_docs.py fails while one is out of date, so adding a game needs no edit
of them. docs/RULES.md holds the table of games; README.md the list of games and the playout seeds each plays in
`make test`."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion.games.registry import all_games

BEGIN = "<!-- games: built by `python -m companion.catalogue`; do not edit by hand -->"
END = "<!-- /games -->"


@dataclass(frozen=True)
class Block:
    """One generated part of a doc: the file it is in, its name in its markers, and what builds it."""

    path: str
    name: str
    build: Callable[[Path], str]
    inline: bool = False
    """Written within a line (a sentence's list), not as lines of its own (a table)."""

    @property
    def begin(self) -> str:
        """The marker before the block."""
        return BEGIN if self.name == "games" else f"<!-- {self.name}: built by `python -m companion.catalogue` -->"

    @property
    def end(self) -> str:
        """The marker after the block."""
        return f"<!-- /{self.name} -->"

    def written(self, text: str, root: Path) -> str:
        """`text` with this block rebuilt; ValueError without its markers."""
        start, end = text.find(self.begin), text.find(self.end)
        if start < 0 or end < start:
            raise ValueError(f"{self.path}: the markers of {self.name!r} are missing ({self.begin} ... {self.end})")
        content = self.build(root)
        inner = content if self.inline else "\n" + content + "\n"
        return text[:start + len(self.begin)] + inner + text[end:]


def games_table(root: Path) -> str:
    """The markdown table of every registered game: title, seats, package, scenario records, rulings."""
    rows = ["| game | seats | demo seats | package | scenarios | rulings |", "|---|---|---|---|---|---|"]
    for game in all_games():
        folder = f"companion/games/{game.id}"
        scenarios = len(list((root / "tests" / "scenarios" / game.id).glob("*.jsonl")))
        rulings = f"[RULINGS.md](../{folder}/RULINGS.md)" if (root / folder / "RULINGS.md").is_file() else "—"
        rows.append(f"| [{game.title}](#{anchor(game.title)}) | {game.rules.min_seats}-{game.rules.max_seats} | "
                    f"{game.demo_seats} | `{folder}/` | {scenarios} | {rulings} |")
    return "\n".join(rows)


def games_list(root: Path) -> str:
    """Every registered game's title, in a sentence's list."""
    return ", ".join(game.title for game in all_games())


PLAYOUT_SEEDS = 100
"""Random playouts of every game at every seat count, `make test` and `make soak` together
(tests/games/test_playouts.py `SEEDS`)."""


def playout_seeds(root: Path) -> str:
    """Each registered game's random playouts per seat count in `make test` (its `quick_playout_seeds`, else
    all of them)."""
    return ", ".join(f"{game.title} {getattr(game.rules, 'quick_playout_seeds', PLAYOUT_SEEDS)}"
                     for game in all_games())


BLOCKS = (
    Block("docs/RULES.md", "games", games_table),
    Block("README.md", "games-list", games_list, inline=True),
    Block("README.md", "playout-seeds", playout_seeds, inline=True),
)
"""Every generated part of the docs."""


def anchor(title: str) -> str:
    """GitHub's anchor of a `## title` heading."""
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c in "-_")


def with_table(text: str, table: str) -> str:
    """`text` with the block between BEGIN and END replaced by `table`; ValueError without the markers."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the games table's markers are missing ({BEGIN} ... {END})")
    return text[:start + len(BEGIN)] + "\n" + table + "\n" + text[end:]


def rebuilt(root: Path, path: str) -> str:
    """The file at `path` (relative to `root`) with every block of it rebuilt."""
    text = (root / path).read_text(encoding="utf-8")
    for block in BLOCKS:
        if block.path == path:
            text = block.written(text, root)
    return text


def main(argv: list[str]) -> int:
    """Rewrite every generated block in place (or only docs/RULES.md's table, in the file given)."""
    root = Path(__file__).resolve().parents[1]
    if argv:
        path = Path(argv[0])
        path.write_text(with_table(path.read_text(encoding="utf-8"), games_table(root)), encoding="utf-8")
        return 0
    for path in dict.fromkeys(block.path for block in BLOCKS):
        (root / path).write_text(rebuilt(root, path), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
