"""The repository's docs stand alone and keep up with the code.

- No file in the repository points a reader at notes kept outside it: no path into a shared folder beside the
  checkout, and no mention of the design, rules, terms or hardware notes files unless the mention resolves
  to a file in the repository (`docs/RULES.md` does).
- Every relative link in README.md and docs/*.md points at a file that exists.
- docs/RULES.md lists every action type of every game's `ACTIONS`, each with all its fields, so the page
  cannot drift from the engines.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from companion.games import get_rules
from companion.games.registry import game_names

ROOT = Path(__file__).resolve().parents[1]

# Built from parts so that this file does not match its own checks.
OUTSIDE_PATHS = ("/work" + "/shared", ".." + "/shared")
NOTE_NAMES = ("DESIGN" + ".md", "RULES" + ".md", "TERMS" + ".md", "HARDWARE-" + "NOTES")
NOTE_MENTION = re.compile(r"([\w./-]*?)(" + "|".join(re.escape(n) for n in NOTE_NAMES) + r")(\.md)?")
SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__"}


def repository_files() -> list[Path]:
    """Files tracked by git (and new files not ignored), else every file outside the skipped folders."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
        files = [ROOT / n for n in names]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.rglob("*") if p.is_file()]
    return [p for p in files
            if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)]


def text_of(path: Path) -> str | None:
    """The file as text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def resolves(mention: str, where: Path) -> bool:
    """Whether a mentioned path names a file, relative to the repository root or to the mentioning file."""
    mention = mention.lstrip("./") if mention.startswith("./") else mention
    return any((base / mention).is_file() for base in (ROOT, where.parent))


def test_no_file_points_outside_the_repository() -> None:
    problems = []
    for path in repository_files():
        text = text_of(path)
        if text is None:
            continue
        rel = path.relative_to(ROOT)
        for number, line in enumerate(text.splitlines(), 1):
            for outside in OUTSIDE_PATHS:
                if outside in line:
                    problems.append(f"{rel}:{number}: {outside}")
            for match in NOTE_MENTION.finditer(line):
                mention = match.group(0)
                if not resolves(mention, path):
                    problems.append(f"{rel}:{number}: {mention} (no such file in the repository)")
    assert not problems, "\n".join(problems)


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def markdown_docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", markdown_docs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files(doc: Path) -> None:
    text = CODE_SPAN.sub("", FENCE.sub("", doc.read_text(encoding="utf-8")))
    missing = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # another scheme (https:, mailto:) or an anchor on the same page
        path = target.split("#", 1)[0]
        if not (doc.parent / path).exists():
            missing.append(target)
    assert not missing, f"{doc.relative_to(ROOT)} links to missing files: {missing}"


def rules_section(title: str) -> str:
    """The part of docs/RULES.md under the game's `## <title>` heading."""
    text = (ROOT / "docs/RULES.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    for part in parts[1:]:
        heading, _, body = part.partition("\n")
        if heading.strip() == title:
            return body
    raise AssertionError(f"docs/RULES.md has no section '## {title}'")


@pytest.mark.parametrize("game", game_names())
def test_rules_doc_lists_every_action_and_field(game: str) -> None:
    rules = get_rules(game)
    section = rules_section(rules.title)
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z_]+)` \|.*$", section, re.M)}
    missing = [t for t in rules.actions if t not in rows]
    assert not missing, f"docs/RULES.md, {rules.title}: action types missing from the table: {missing}"
    extra = [t for t in rows if t not in rules.actions]
    assert not extra, f"docs/RULES.md, {rules.title}: action types the engine does not have: {extra}"
    for kind, spec in rules.actions.items():
        absent = [f for f in spec.fields if f"`{f}`" not in rows[kind]]
        assert not absent, f"docs/RULES.md, {rules.title}, `{kind}`: fields not listed: {absent}"


def test_the_games_table_in_docs_rules_is_built_from_the_registry() -> None:
    """docs/RULES.md's table of games is what `python -m companion.catalogue` writes, and each game has its
    own section there (a new game's package appears by itself: rerun the command)."""
    from companion.catalogue import games_table, with_table
    from companion.games.registry import all_games

    text = (ROOT / "docs/RULES.md").read_text(encoding="utf-8")
    assert with_table(text, games_table(ROOT)) == text, "run `python -m companion.catalogue` (make docs)"
    headings = set(re.findall(r"^## (.+)$", text, flags=re.M))
    assert {g.title for g in all_games()} <= headings


def test_the_readmes_lists_of_games_are_built_from_the_registry() -> None:
    """README.md's list of games and each game's playout seeds are what `python -m companion.catalogue` writes
    (a new game appears by itself: rerun the command)."""
    from companion.catalogue import rebuilt

    assert rebuilt(ROOT, "README.md") == (ROOT / "README.md").read_text(encoding="utf-8"), \
        "run `python -m companion.catalogue` (make docs)"


def test_every_game_a_readme_table_names_is_registered() -> None:
    """The README's measured tables (one row per game and figure) name only registered games, by title or id: a
    game renamed or removed leaves no stale row (a new game is added to them once it is measured)."""
    from companion.games.registry import all_games

    known = {g.title for g in all_games()} | {g.id for g in all_games()}
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named: set[str] = set()
    for table in re.findall(r"^\| game \|.*\n\|[-| ]+\|\n((?:\|.*\n)+)", text, flags=re.M):
        named |= {row.split("|")[1].strip() for row in table.splitlines()}
    assert named and named <= known, named - known
