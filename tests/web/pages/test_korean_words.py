"""docs/TERMS.md enforced word by word on web/i18n/ko.json: no banned variant, counters by what is counted, one
sentence per sentence (no colon joining two), a whole phrase quoted rather than given a particle."""

from __future__ import annotations

import re
from pathlib import Path

from companion.web import hangul, texts

TERMS = Path(__file__).resolve().parents[3] / "docs/TERMS.md"


def section(title: str) -> list[list[str]]:
    """The body rows of the table under `## title` in docs/TERMS.md, as lists of cells."""
    rows, inside = [], False
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == title
            continue
        if inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] not in ("not", "counted") and not set(cells[0]) <= {"-"}:
                rows.append(cells)
    assert rows, f"docs/TERMS.md has no table under '## {title}'"
    return rows


def banned() -> list[tuple[list[str], list[str], list[str]]]:
    """(banned words, the words to write, key prefixes it applies to: empty for every text)."""
    return [([w.strip() for w in bad.split(" / ")], [w.strip() for w in good.split(" / ")],
             [p.strip() for p in where.split(" / ") if p.strip()])
            for bad, good, where, _why in section("Words we do not use")]


def counters() -> list[tuple[list[str], str]]:
    """(English nouns after a number, the Korean counter)."""
    return [([w.strip() for w in english.split(" / ")], korean.strip()) for _, english, korean in section("Counting")]


def ko_texts() -> dict[str, str]:
    return {k: str(v) for k, v in texts.flatten(texts.load("ko")).items()}


def en_texts() -> dict[str, str]:
    return {k: str(v) for k, v in texts.flatten(texts.load("en")).items()}


def word_problems(ko: dict[str, str]) -> list[str]:
    """Korean texts holding a word docs/TERMS.md bans (outside a right word that contains it)."""
    problems = []
    for bad_words, good_words, where in banned():
        for key, text in ko.items():
            if where and not any(key == p or key.startswith(p) for p in where):
                continue
            rest = text
            for good in sorted(good_words, key=len, reverse=True):
                rest = rest.replace(good, "\0")
            for bad in bad_words:
                if bad in rest:
                    problems.append(f"ko: {key} = {text!r} uses {bad!r}; docs/TERMS.md writes "
                                    f"{' / '.join(good_words)!r}")
                    break
    return problems


def counter_problems(ko: dict[str, str], en: dict[str, str]) -> list[str]:
    """Korean texts whose English counts players, moves, cards... by a placeholder without that counter after it."""
    problems = []
    for nouns, counter in counters():
        counted = re.compile(r"\{(\w+)\}\s+(?:" + "|".join(map(re.escape, nouns)) + r")\b")
        for key, text in en.items():
            for name in counted.findall(text):
                if key in ko and not re.search(r"\{" + name + r"(?::[^{}]+)?\}" + re.escape(counter), ko[key]):
                    problems.append(f"ko: {key} = {ko[key]!r} counts {{{name}}} without {counter!r} "
                                    f"(its English {text!r}; docs/TERMS.md 'Counting')")
    return problems


JOINED = re.compile(r"(니다|세요): ([^.?!…]*)")
"""A sentence, a colon, and what follows up to the next stop."""


def colon_problems(ko: dict[str, str]) -> list[str]:
    """Two sentences joined by a colon ("…습니다: …세요."): Korean writes two sentences."""
    problems = []
    for key, text in ko.items():
        for m in JOINED.finditer(text):
            if re.search(r"(니다|세요|니까)$", m.group(2).strip()) or re.search(r"(니다|세요)$", m.group(2)):
                problems.append(f"ko: {key} = {text!r} joins two sentences with a colon; write two sentences")
                break
    return problems


PHRASES = frozenset({"what", "reason", "action", "label"})
"""Placeholders filled with a whole button label or sentence: quoted, never followed by a particle
("'수상 후보 지명' 선택을 보냈습니다", not "수상 후보 지명을 보냈습니다")."""


def phrase_problems(ko: dict[str, str]) -> list[str]:
    return [f"ko: {key} = {text!r} puts a particle after {{{name}}}, which holds a whole phrase; quote it"
            for key, text in ko.items() for name, marker in hangul.PLACEHOLDER.findall(text)
            if marker and name in PHRASES]


def test_the_word_tables_read() -> None:
    rows = banned()
    assert (["리더"], ["리더기"], []) in rows
    assert any("호스트" in bad and "진행자" in good for bad, good, _ in rows)
    assert any("은행" in bad and "공급처" in good for bad, good, _ in rows)
    assert (["players", "seats"], "인") in counters() and (["moves", "actions"], "회") in counters()


def test_no_korean_text_uses_a_banned_variant() -> None:
    problems = word_problems(ko_texts())
    assert not problems, "\n".join(problems)


def test_korean_counts_with_the_counter_of_what_is_counted() -> None:
    problems = counter_problems(ko_texts(), en_texts())
    assert not problems, "\n".join(problems)


def test_no_korean_text_joins_two_sentences_with_a_colon() -> None:
    problems = colon_problems(ko_texts())
    assert not problems, "\n".join(problems)


def test_a_whole_phrase_takes_no_particle() -> None:
    problems = phrase_problems(ko_texts())
    assert not problems, "\n".join(problems)


def test_the_checks_catch_each_kind_of_mistake() -> None:
    ko, en = ko_texts(), en_texts()
    ko["sim.on_reader"] = "리더 위"
    ko["sim.on_reader_ok"] = "리더기 위"
    ko["replay.login"] = "호스트에게 링크를 요청하세요."
    ko["games.gangsters_dilemma.board.bank"] = "은행"
    ko["ui.to_act"] = "응답 대기"  # 대기 is banned on sim buttons only
    ko["host.seats_n"] = "{n}자리"
    ko["codes.csrf"] = "페이지가 오래되었습니다: 새로고침하세요."
    ko["ui.sent"] = "{what:을} 보냈습니다."
    words = "\n".join(word_problems(ko))
    assert "ko: sim.on_reader = '리더 위' uses '리더'" in words and "sim.on_reader_ok" not in words
    assert "ko: replay.login" in words and "ko: games.gangsters_dilemma.board.bank" in words
    assert "ui.to_act" not in words
    assert any(p.startswith("ko: host.seats_n = '{n}자리' counts {n} without '인'") for p in counter_problems(ko, en))
    assert any(p.startswith("ko: codes.csrf = ") for p in colon_problems(ko))
    assert any(p.startswith("ko: ui.sent = ") for p in phrase_problems(ko))
