"""Korean texts read like the rulebooks: particles chosen by the word (the same rule in the page and in Python),
no particle written both ways."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

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
