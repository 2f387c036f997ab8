"""The table of games in docs/RULES.md, built from the registry: `python -m companion.catalogue` rewrites it
(`make docs` runs it) and tests/test_docs.py fails while it is out of date."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.games.registry import all_games

BEGIN = "<!-- games: built by `python -m companion.catalogue`; do not edit by hand -->"
END = "<!-- /games -->"


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


def anchor(title: str) -> str:
    """GitHub's anchor of a `## title` heading."""
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c in "-_")


def with_table(text: str, table: str) -> str:
    """`text` with the block between BEGIN and END replaced by `table`; ValueError without the markers."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the games table's markers are missing ({BEGIN} ... {END})")
    return text[:start + len(BEGIN)] + "\n" + table + "\n" + text[end:]


def main(argv: list[str]) -> int:
    """Rewrite docs/RULES.md's table (or the file given) in place."""
    root = Path(__file__).resolve().parents[1]
    path = Path(argv[0]) if argv else root / "docs/RULES.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(with_table(text, games_table(root)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
