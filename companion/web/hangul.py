"""Korean particles chosen by the word they follow ("{seat:이}" -> "1번 자리가"), the twin of
web/static/js/hangul.js; both are checked against tests/web/pages/particle_cases.json."""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any, Callable, Mapping

PARTICLES: Mapping[str, tuple[str, str]] = {
    "이": ("이", "가"), "가": ("이", "가"),
    "을": ("을", "를"), "를": ("을", "를"),
    "은": ("은", "는"), "는": ("은", "는"),
    "과": ("과", "와"), "와": ("과", "와"),
    "으로": ("으로", "로"), "로": ("으로", "로"),
}
"""Marker (either form) -> (after a final consonant, after a vowel); 으로/로 also takes 로 after ㄹ."""
PLACEHOLDER = re.compile(r"\{(\w+)(?::([^{}\s]+))?\}")
"""`{name}` or `{name:particle}`."""
FALLBACKS = ("(이)", "(가)", "(을)", "(를)", "(은)", "(는)", "(와)", "(과)", "(으)로", "(로)")
"""Particles written both ways, which the markers replace."""


class Final(IntEnum):
    """How a word ends when read aloud."""

    VOWEL = 0
    CONSONANT = 1
    RIEUL = 2


DIGIT_FINAL: tuple[Final, ...] = tuple(Final(int(c)) for c in "1201001220")
"""Final sound (a Final) of a number's last digit read in Sino-Korean (영 일 이 삼 사 오 육 칠 팔 구); a number
ending in zeros ends in 영, 십, 백, 천, 만 or 억, always a consonant other than ㄹ."""
LETTER_FINAL: Mapping[str, Final] = {"l": Final.RIEUL, "r": Final.RIEUL, "m": Final.CONSONANT, "n": Final.CONSONANT}
"""A letter said by its name (an abbreviation like "CU", a lone "L")."""
WORD_FINAL: Mapping[str, Final] = {"l": Final.RIEUL, **{c: Final.CONSONANT for c in "mnbcdgkpt"}}
"""An English word ending in these is said with a final consonant ("Tom", "Kim", "Bob"; "Bill" ends in ㄹ)."""
SAID_WITH_VOWEL = re.compile(r"(d|[^aeiouyc]k|[^aeiouyt]t)$", re.IGNORECASE)
"""Endings Korean says with a vowel after them: David 데이비드, Mark 마크, Robert 로버트 (Jack 잭, Pat 팻 keep
their consonant)."""
TRAILING = re.compile(r"[^0-9A-Za-z\uAC00-\uD7A3]+$")


def final_sound(word: str) -> Final:
    """How a word ends when read aloud (trailing punctuation ignored)."""
    s = TRAILING.sub("", str(word))
    if not s:
        return Final.VOWEL
    last = s[-1]
    if "\uac00" <= last <= "\ud7a3":
        jong = (ord(last) - 0xAC00) % 28
        return Final.VOWEL if jong == 0 else Final.RIEUL if jong == 8 else Final.CONSONANT
    if last.isdigit():
        return DIGIT_FINAL[int(last)]
    latin = re.search(r"[A-Za-z]+$", s).group(0)  # type: ignore[union-attr]
    if len(latin) == 1 or latin == latin.upper():
        return LETTER_FINAL.get(last.lower(), Final.VOWEL)
    if latin.lower().endswith("ng"):
        return Final.CONSONANT
    if SAID_WITH_VOWEL.search(latin):
        return Final.VOWEL
    return WORD_FINAL.get(last.lower(), Final.VOWEL)


def particle(word: str, marker: str) -> str:
    """The particle for a marker after a word: "이" after "책" is "이", after "사과" is "가"."""
    after_consonant, after_vowel = PARTICLES[marker]
    end = final_sound(word)
    if after_consonant == "으로":
        return "으로" if end is Final.CONSONANT else "로"
    return after_vowel if end is Final.VOWEL else after_consonant


def fill(text: str, params: Mapping[str, Any], word: Callable[[str, Any], str] = lambda _name, v: str(v)) -> str:
    """A template with its placeholders filled (`word(name, value)` puts a value in words), particles chosen."""
    def one(m: re.Match[str]) -> str:
        name, marker = m.group(1), m.group(2)
        if name not in params or (marker is not None and marker not in PARTICLES):
            return m.group(0)
        value = word(name, params[name])
        return value + particle(value, marker) if marker else value
    return PLACEHOLDER.sub(one, text)
