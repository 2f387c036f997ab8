"""What a player reads: the visible text of a page checked for words that are not translations.

A problem is a `{placeholder}` left unfilled, a snake_case key, a zone id (`seat:1`), an identifier of the
game's own JSON (`peek`, `choice`) standing where a word should, or (on a Korean page) an English sentence
that stands in for a missing translation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")
SNAKE = re.compile(r"(?<![\w/.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])")
ZONE = re.compile(r"(?<![\w/])[a-z]+:[a-z0-9_]+\b")
LATIN_WORD = re.compile(r"(?<![\w/.-])[a-z][a-z0-9]*(?![\w/-])")
ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z]+(?: [a-z]{2,}){2,}\b")
SECOND_PERSON = re.compile(r"\bYou(?:r)?\b")
IDENT = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Problem:
    """One kind of untranslated text, where it was seen first."""

    kind: str
    text: str
    page: str
    lang: str
    line: str = ""

    def __str__(self) -> str:
        return f"{self.page} [{self.lang}] {self.kind}: {self.text!r} in {self.line!r}"


def identifiers(*trees: Any) -> set[str]:
    """Every lowercase identifier (dict key or string value) in some JSON: the words a page must not show raw."""
    found: set[str] = set()
    stack = list(trees)
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if isinstance(key, str) and IDENT.match(key):
                    found.add(key)
                stack.append(value)
        elif isinstance(node, (list, tuple, set, frozenset)):
            stack.extend(node)
        elif isinstance(node, str) and IDENT.match(node):
            found.add(node)
    return found


def problems(text: str, lang: str, raw: Iterable[str], page: str, public: bool = False,
             words: Iterable[str] = ()) -> list[Problem]:
    """The untranslated bits of one page's visible text (`raw`: the identifiers of the JSON it was drawn from;
    `words`: the language's own texts, which may happen to spell an identifier (English "red");
    `public`: a page nobody owns, where a line that says "you" speaks to nobody)."""
    raw = set(raw) - set(words)
    found: list[Problem] = []

    def add(kind: str, s: str, at: int) -> None:
        found.append(Problem(kind, s, page, lang, line_of(text, at)))

    for m in PLACEHOLDER.finditer(text):
        add("placeholder", line_of(text, m.start()), m.start())
    for m in SNAKE.finditer(text):
        add("snake_case", m.group(), m.start())
    for m in ZONE.finditer(text):
        add("zone_id", m.group(), m.start())
    at = 0
    for line in text.splitlines(keepends=True):
        for cell in line.split("\t"):
            bare = cell.strip().rstrip(":").strip()
            if bare in raw and "_" not in bare:
                add("raw_key", bare, at)
        at += len(line)
    if lang != "en":
        for m in LATIN_WORD.finditer(text):
            if m.group() in raw and "_" not in m.group():
                add("raw_key", m.group(), m.start())
        for m in ENGLISH_RUN.finditer(text):
            add("english", line_of(text, m.start()), m.start())
    elif public:
        for m in SECOND_PERSON.finditer(text):
            add("second_person", line_of(text, m.start()), m.start())
    return found


def line_of(text: str, at: int) -> str:
    """The line around a position (what a report quotes)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)].strip()[:160]
