"""Korean texts read like the rulebooks: particles chosen by the word (the same rule in the page and in Python),
no particle written both ways."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.games.registry import all_games, game_names
from companion.web import hangul, texts
from companion.web.site import static_dir
from tests.web.pages.browser import chromium

CASES = json.loads((Path(__file__).with_name("particle_cases.json")).read_text(encoding="utf-8"))
ORIGIN = "http://texts.test"


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """A blank page whose origin serves web/static (so the page's own modules import as they do on the table)."""
    root = Path(static_dir())

    def serve(route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        file = root / path.removeprefix("/static/")
        if path == "/":
            route.fulfill(status=200, content_type="text/html", body="<!doctype html><body></body>")
        elif file.is_file() and root in file.resolve().parents:
            route.fulfill(status=200, content_type="text/javascript", body=file.read_text(encoding="utf-8"))
        else:
            route.fulfill(status=404, body="")

    with chromium() as browser:
        p = browser.new_context().new_page()
        p.route(f"{ORIGIN}/**", serve)
        p.goto(f"{ORIGIN}/")
        yield p


@pytest.mark.parametrize(("word", "marker", "expected"), CASES)
def test_python_chooses_the_particle_by_the_last_syllable(word: str, marker: str, expected: str) -> None:
    assert hangul.particle(word, marker) == expected, f"{word} + {marker}"


def test_the_page_chooses_the_same_particles(page: Any) -> None:
    got = page.evaluate("""async (cases) => {
        const h = await import("/static/js/hangul.js");
        return cases.map(([w, m]) => h.particle(w, m));
    }""", CASES)
    wrong = [f"{w} + {m}: page {g}, expected {e}" for (w, m, e), g in zip(CASES, got) if g != e]
    assert not wrong, "\n".join(wrong)


def test_the_page_and_python_fill_a_template_alike(page: Any) -> None:
    template = "{a:이} {b:을} {c:으로} {d:과} {e:은} {f} {g:없는표시}"
    params = {"a": "1번 자리", "b": "보석", "c": "미술관", "d": "술병", "e": 7, "f": "Bob"}
    got = page.evaluate("""async ([text, params]) => {
        const { I18n } = await import("/static/js/i18n.js");
        return new I18n("ko", {}, {}).fill(text, params);
    }""", [template, params])
    assert got == hangul.fill(template, params) == "1번 자리가 보석을 미술관으로 술병과 7은 Bob {g:없는표시}"


def test_no_korean_text_writes_a_particle_both_ways() -> None:
    found = [f"ko: {key} writes {f!r} (use a marker such as {{name:이}}): {text}"
             for key, text in texts.flatten(texts.load("ko")).items() for f in hangul.FALLBACKS if f in str(text)]
    assert not found, "\n".join(found)


def test_every_particle_marker_is_known() -> None:
    bad = [f"{lang}: {key} has an unknown particle marker {{{name}:{marker}}}"
           for lang in ("en", "ko") for key, text in texts.flatten(texts.load(lang)).items()
           for name, marker in hangul.PLACEHOLDER.findall(str(text)) if marker and marker not in hangul.PARTICLES]
    assert not bad, "\n".join(bad)


# --- the words and the register of every Korean text --------------------------------------------------------

ROOT = Path(__file__).resolve().parents[3]
TERMS = ROOT / "docs/TERMS.md"
NAMES = frozenset({"Goat", "Wolf", "Cabbage", "BY-NC-SA", "CU", "PIN", "QR", "UID", "JSON", "CSV", "LED"})
"""Latin words a Korean text may hold: proper names, the game's currency (CU) and technical names players see
on devices."""
NAMES_IN = {"lang": {"ko"}, "codes.bad_terminal": {"ID"},
            "host.join_loopback_only": {"make", "run", "HOST", "web", "host"},
            "host.join_not_served": {"web", "public_url"},
            "host.table_locked_out": {"companion", "host-link"}, "codes.pin_table_locked": {"companion", "host-link"},
            "codes.link_expired": {"companion", "host-link"}}
"""Latin words one text may hold besides NAMES: a setting or command the host types."""
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
PATH = re.compile(r"(?<![\w])/[a-z_/]+")
LOG_END = re.compile(r"(니다|니다 \([^()]*\))[.!]$")
"""A log line: 합니다체, with at most one closing parenthesis of details."""
MESSAGE_END = re.compile(r"(니다|세요|까요|니까)[.?!]?( \([^()]*\))?[.?]?$|…$")
"""A message or refusal: 합니다체 (a request may end in -세요; waiting lines in …)."""
BUTTON_END = re.compile(r"(니다|세요|요)[.?!]?$|\.$")
"""What a button, badge, phase or field must not end with: a sentence."""
MESSAGE_PREFIXES = ("codes.", "host.join_")
MESSAGE_KEYS = frozenset({
    "ui.no_game", "ui.bad_token", "ui.sim_off", "ui.nothing_to_do", "ui.game_changed", "ui.expected_vs_seen",
    "host.wrong_pin", "host.locked_out", "host.started", "host.saved", "host.imported", "host.undone",
    "host.resumed", "host.check_ok", "host.ended", "host.no_game", "host.bound_done", "host.unbound_done",
    "host.no_terminals", "host.replace_confirm", "host.undo_confirm", "host.end_confirm", "host.identify",
    "about.what", "about.sh", "about.others", "host.table_locked_out", "host.link_explain", "host.journal_gone"})
"""Texts that are sentences to a player or the host (besides every refusal)."""
SHORT_GROUPS = ("actions", "kinds", "phases", "phase_actions", "fields", "values", "outcomes", "reasons", "board",
                "options", "locations", "units")
DOUBLED = re.compile(r"(이가|가이|을를|를을|은는|는은|과와|와과|으로로|로으로)(?=[\s.,!)]|$)|\([가를과와는]\)|\(으\)로")
COUNTED = re.compile(r"\d+\s+(?:상자|미술품|보석|술병|승점|카드|정책|달러|도둑|경비병|지폐|궁전|토큰|장|개|점)(?![가-힣])|\$|\d\s*\$")
"""A number standing before its noun ("2 상자", "4 승점", "+2 $"), or a dollar sign: Korean writes 상자 2개, 1달러."""


def ko_texts() -> dict[str, str]:
    return {k: str(v) for k, v in texts.flatten(texts.load("ko")).items()}


def en_texts() -> dict[str, str]:
    return {k: str(v) for k, v in texts.flatten(texts.load("en")).items()}


def glossary() -> dict[str, list[tuple[str, str, list[str]]]]:
    """docs/TERMS.md's tables, and each game package's own GLOSSARY.md (the same "## Title" sections): game ->
    [(English term, Korean word, ids)], cells paired in order."""
    titles = {v: k.split(".")[1] for k, v in en_texts().items() if k.startswith("games.") and k.endswith(".title")}
    out: dict[str, list[tuple[str, str, list[str]]]] = {}
    game = None
    own = [g.folder / "GLOSSARY.md" for g in all_games() if (g.folder / "GLOSSARY.md").is_file()]
    for line in "\n".join(path.read_text(encoding="utf-8") for path in [TERMS, *own]).splitlines():
        if line.startswith("## "):
            name = line[3:].split(" (")[0].strip()
            game = titles.get(name)
            if game:
                out[game] = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if game is None or len(cells) != 3 or cells[0] in ("id", "---"):
            continue
        english, korean = (re.sub(r"\s*\([^)]*\)", "", c).split(" / ") for c in cells[1:])
        assert len(english) == len(korean), f"docs/TERMS.md: the cells of this row do not pair up: {line}"
        ids = re.findall(r"`([^`]+)`", cells[0])
        for n, (e, k) in enumerate(zip(english, korean)):
            out[game].append((e.strip(), k.strip(), [ids[n]] if len(ids) == len(english) else []))
    return out


def term_spans(text: str, terms: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Where each English term occurs as a word (plural too), leaving out occurrences inside a longer term's."""
    spans = {}
    for term in terms:
        stem = re.escape(term[:-1]) + "(?:y|ies)" if term.endswith("y") else re.escape(term) + "(?:s|es)?"
        spans[term] = [m.span() for m in re.finditer(rf"(?<![\w]){stem}(?![\w])", text, re.IGNORECASE)]
    every = [(s, t) for t, ss in spans.items() for s in ss]
    return {t: [s for s in ss if not any(u != t and len(u) > len(t) and o[0] <= s[0] and s[1] <= o[1]
                                         for o, u in every)]
            for t, ss in spans.items()}


def test_the_glossary_reads() -> None:
    terms = glossary()
    assert set(terms) == set(game_names()), "every game's words in docs/TERMS.md or its package's GLOSSARY.md"
    assert ("Chancellor", "수상", ["chancellor"]) in terms["secret_hitler"]
    assert ("loot", "귀중품", []) in terms["gangsters_dilemma"]


def glossary_problems(ko: dict[str, str], en: dict[str, str]) -> list[str]:
    """Korean texts that do not use docs/TERMS.md's word where their English uses its term (or name its id)."""
    problems = []
    for game, rows in glossary().items():
        for english, korean, ids in rows:
            for id_ in ids:
                key = f"games.{game}.values.{id_}"
                if key in ko and ko[key] != korean:
                    problems.append(f"ko: {key} is {ko[key]!r}; docs/TERMS.md names {id_} {korean!r}")
        words = [e for e, _, _ in rows]
        korean_of = {e: k for e, k, _ in rows}
        named = {f"games.{game}.values.{i}" for _, _, ids in rows for i in ids}  # checked by id above
        for key, text in en.items():
            if not key.startswith(f"games.{game}.") or key not in ko or key in named:
                continue
            plain = hangul.PLACEHOLDER.sub("", text)
            for term, spans in term_spans(plain, words).items():
                if spans and korean_of[term] not in ko[key]:
                    problems.append(f"ko: {key} = {ko[key]!r} lacks {korean_of[term]!r}, the word for "
                                    f"{term!r} in its English {text!r} (docs/TERMS.md)")
    return problems


def latin_problems(ko: dict[str, str]) -> list[str]:
    """Korean texts holding an English word or id that is not a proper name."""
    problems = []
    for key, text in ko.items():
        plain = PATH.sub("", hangul.PLACEHOLDER.sub("", text))
        for word in LATIN.findall(plain):
            if word not in NAMES and word not in NAMES_IN.get(key, ()):
                problems.append(f"ko: {key} = {text!r} holds the English word or id {word!r}; write it in Korean "
                                f"(a proper name goes in NAMES of tests/web/pages/test_korean.py)")
    return problems


def register_problems(ko: dict[str, str]) -> list[str]:
    """Korean texts out of their kind's register: log lines, messages, buttons and badges."""
    problems = []
    for key, text in ko.items():
        parts = key.split(".")
        group = parts[2] if parts[0] == "games" and len(parts) > 3 else None
        message = group == "codes" or key in MESSAGE_KEYS or key.startswith(MESSAGE_PREFIXES)
        if group == "log" and not LOG_END.search(text):
            problems.append(f"ko: {key} = {text!r}: a log line ends in -습니다 (optionally one '(...)' before "
                            "the final '.'), like every game's log")
        elif message and not MESSAGE_END.search(text):
            problems.append(f"ko: {key} = {text!r}: a message or refusal is written in 합니다체 (…니다. / …세요.)")
        elif group in SHORT_GROUPS and BUTTON_END.search(text):
            problems.append(f"ko: {key} = {text!r}: buttons, badges, phases and fields are short nouns or verbs, "
                            "not sentences")
        if COUNTED.search(hangul.PLACEHOLDER.sub(" ", text)):
            problems.append(f"ko: {key} = {text!r}: a count follows its noun (상자 2개, 승점 4점, 1달러), never '$'")
    return problems


def test_korean_uses_the_glossary_word_wherever_the_english_uses_the_term() -> None:
    problems = glossary_problems(ko_texts(), en_texts())
    assert not problems, "\n".join(problems)


def test_no_korean_text_holds_an_english_word_or_id() -> None:
    problems = latin_problems(ko_texts())
    assert not problems, "\n".join(problems)


def test_each_kind_of_korean_text_keeps_one_register_and_puts_numbers_after_nouns() -> None:
    """Numbers written out in the texts; the filled-in ones are checked on rendered lines below."""
    problems = register_problems(ko_texts())
    assert not problems, "\n".join(problems)


def test_the_checks_name_the_key_and_the_reason() -> None:
    ko, en = ko_texts(), en_texts()
    ko["games.gangsters_dilemma.log.chose"] = "{seat:이} {location}에 감"
    ko["games.gangsters_dilemma.actions.steal"] = "{target}에게서 $1 가져오기"
    ko["games.secret_hitler.kinds.execute"] = "사망"
    ko["games.boss_wallet.values.red"] = "red"
    ko["codes.busy"] = "테이블 응답 없음"
    problems = register_problems(ko) + glossary_problems(ko, en) + latin_problems(ko)
    assert any(p.startswith("ko: games.gangsters_dilemma.log.chose = ") and "log line" in p for p in problems)
    assert any(p.startswith("ko: games.gangsters_dilemma.actions.steal = ") and "count follows" in p for p in problems)
    assert any(p.startswith("ko: games.secret_hitler.kinds.execute = '사망' lacks '처형'") for p in problems)
    assert any(p.startswith("ko: games.boss_wallet.values.red = 'red' holds the English word") for p in problems)
    assert any(p.startswith("ko: codes.busy = ") and "합니다체" in p for p in problems)
    assert not register_problems(ko_texts()) + glossary_problems(ko_texts(), en) + latin_problems(ko_texts())


# --- every log template, filled from random playouts as the page fills it ----------------------------------

SEAT_NAMES = ["민준", "Bob", "서연", "Alice", "지훈", "Kim", "하은", "Tom", "철수", "Lee"]
"""Seat names that end every way a particle can tell (a vowel, a consonant, ㄹ; Hangul and Latin)."""
RENDER = """async ([game, sample, facts, ko, en, names]) => {
    const { I18n } = await import("/static/js/i18n.js");
    const { particle } = await import("/static/js/hangul.js");
    const i = new I18n("ko", ko, en);
    i.setView(game, { card_info: sample.card_info });
    i.facts = facts;
    const marker = /\\{(\\w+)(?::([^{}\\s]+))?\\}/g;
    const render = (e) => {
        const text = i.raw(`games.${game}.log.${e.code}`);
        const pairs = [];  // (word, marker, particle) as the page chose them, for Python's rule to check
        for (const [, name, p] of (text || "").matchAll(marker)) {
            if (p && name in (e.params || {})) {
                const word = i.value(name, e.params[name]);
                pairs.push([word, p, particle(word, p)]);
            }
        }
        return { code: e.code, line: i.log(e), pairs };
    };
    const unnamed = sample.entries.map(render);
    i.seats = names.map((name) => ({ name }));
    return unnamed.concat(sample.entries.map(render));
}"""


def line_problems(game: str, lines: list[dict[str, Any]]) -> list[str]:
    """Rendered Korean log lines that do not read as Korean: unfilled, doubled particles, numbers before nouns,
    English ids, a particle the page chose differently from Python's rule."""
    problems = []
    for r in lines:
        where = f"ko: games.{game}.log.{r['code']} rendered {r['line']!r}"
        if "{" in r["line"]:
            problems.append(f"{where}: a placeholder was left unfilled")
        if DOUBLED.search(r["line"]):
            problems.append(f"{where}: a particle is doubled or written both ways")
        if COUNTED.search(r["line"]):
            problems.append(f"{where}: a number stands before its noun (write 상자 2개, 승점 4점, 1달러)")
        # demand cards are named by the deck the host loads ("sample-04"): names, not ids to translate
        latin = [w for w in LATIN.findall(r["line"])
                 if w not in NAMES and w not in SEAT_NAMES and not re.fullmatch(r"sample-\d+", w)]
        if latin:
            problems.append(f"{where}: English words or ids {latin} (put them in words through the values)")
        for word, marker, chosen in r["pairs"]:
            if chosen != hangul.particle(word, marker):
                problems.append(f"{where}: the page put {chosen!r} after {word!r}, Python's rule says "
                                f"{hangul.particle(word, marker)!r}")
    return sorted(set(problems))


@pytest.fixture(scope="module")
def rendered(page: Any) -> dict[str, list[dict[str, Any]]]:
    """Every game's log entries from random playouts at every seat count, rendered in Korean by the page (with
    unnamed seats, then named ones)."""
    from companion.games.binding import get_binding
    from companion.games.registry import game_names

    out: dict[str, list[dict[str, Any]]] = {}
    for game in game_names():
        lines: list[dict[str, Any]] = []
        for sample in texts.log_samples(game, per_code=6):
            facts = get_binding(game).facts(sample["seats"])
            lines += page.evaluate(RENDER, [game, sample, facts, texts.load("ko"), texts.load("en"), SEAT_NAMES])
        out[game] = lines
    return out


def test_every_log_template_is_rendered_from_playouts(rendered: dict[str, list[dict[str, Any]]]) -> None:
    from companion.games.registry import get_rules

    for game, lines in rendered.items():
        codes = {r["code"] for r in lines}
        # a random game may never log a few codes (a chancellor's veto, a special card nobody enrolled)
        assert len(codes) >= len(get_rules(game).log_codes) * 0.7, (game, sorted(set(get_rules(game).log_codes) - codes))
        assert sum(len(r["pairs"]) for r in lines) > 20, game


def test_rendered_korean_log_lines_read_as_korean(rendered: dict[str, list[dict[str, Any]]]) -> None:
    problems = [p for game, lines in rendered.items() for p in line_problems(game, lines)]
    assert not problems, "\n".join(problems)


def test_the_line_check_names_the_template_and_the_fault() -> None:
    lines = [{"code": "nominated", "line": "10번 자리이(가) 1번 자리을(를) 수상 후보로 지명했습니다.", "pairs": []},
             {"code": "traded", "line": "1번 자리가 2 상자를 받았습니다 (+2 $).", "pairs": []},
             {"code": "special", "line": "1번 자리가 red250a를 냈습니다.", "pairs": [["red250a", "을", "을"]]}]
    problems = "\n".join(line_problems("secret_hitler", lines))
    assert "games.secret_hitler.log.nominated rendered '10번 자리이(가)" in problems and "doubled" in problems
    assert "games.secret_hitler.log.traded" in problems and "number stands before" in problems
    assert "English words or ids ['red250a']" in problems
    assert "the page put '을' after 'red250a', Python's rule says '를'" in problems


def test_the_page_words_counts_cards_and_moves_as_korean_players_say_them(page: Any) -> None:
    from companion.games.binding import get_binding

    facts = {game: get_binding(game).facts(5) for game in ("gangsters_dilemma", "boss_wallet", "secret_hitler")}
    got = page.evaluate("""async ([ko, en, facts]) => {
        const { I18n } = await import("/static/js/i18n.js");
        const i = new I18n("ko", ko, en);
        const out = {};
        i.facts = facts.gangsters_dilemma;
        i.setView("gangsters_dilemma", { phase: "respond" });
        out.respond_pass = i.action({ type: "pass", seat: 0 });
        out.answer = i.t("games.gangsters_dilemma.log.response", { seat: 0, response: "pass" });
        i.setView("gangsters_dilemma", { phase: "fulfil" });
        out.fulfil_pass = i.action({ type: "pass", seat: 0 });
        out.needs = i.value("needs", { crate: 2, jewel: 1, art: 0 });
        out.vp = i.t("games.gangsters_dilemma.log.game_over", { why: "21_vp", winners: [1], vp: [3, 21] });
        i.facts = facts.boss_wallet;
        i.setView("boss_wallet", { phase: "turns", card_info: {
            red250a: { type: "bill", value: 250, currency: "red" },
            extra_john_smith: { type: "id", person: "john_smith" } } });
        out.buy = i.action({ type: "buy_id", seat: 0, paid: ["red250a"], id_card: "extra_john_smith" });
        out.verdict = i.t("games.boss_wallet.log.investigation", { seat: 0, target: 1, guilty: true });
        i.facts = facts.secret_hitler;
        i.setView("secret_hitler", { phase: "vote" });
        out.votes = i.t("games.secret_hitler.log.votes", { votes: ["ja", "nein"], passed: false, election_tracker: 1 });
        return out;
    }""", [texts.load("ko"), texts.load("en"), facts])
    assert got["respond_pass"] == "체포당하기" and got["fulfil_pass"] == "요구 달성 안 함"
    assert got["answer"] == "1번 자리는 체포당하기를 골랐습니다."
    assert got["needs"] == "상자 2개, 보석 1개"
    assert got["vp"].endswith("승자는 2번 자리입니다 (승점: 1번 자리 3점, 2번 자리 21점).")
    assert got["buy"] == "추가 신분증 구매: 빨강 지폐 250 · 존 스미스 신분증"
    assert got["verdict"] == "1번 자리가 2번 자리를 조사했습니다 (판정: 유죄)."
    assert got["votes"] == "투표를 공개했습니다: 1번 자리 찬성, 2번 자리 반대. 부결되었습니다 (선거 트랙 1칸)."
