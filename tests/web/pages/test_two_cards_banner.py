"""Two cards on one reader, as the table page shows it: the refusal names the seat and says in words (English and
Korean) to take one card away; no id, code or placeholder on screen; TV and phone screenshots kept."""

from __future__ import annotations

from typing import Any

from companion.hal.events import TagsCrowded
from companion.table.runtime import Runtime
from tests.web.pages.browser import csp_errors, shot
from tests.web.pages.test_layout import (SEAT_NAMES, base_url, notice_text, open_page, start, table,  # noqa: F401
                                         wait_board)


def test_two_cards_on_a_reader_are_refused_in_words_on_the_tv_and_a_phone(browser: Any, base_url: str,  # noqa: F811
                                                                          table: Runtime) -> None:  # noqa: F811
    start(table, "secret_hitler", 5)
    table.loop.wait_idle()
    for width, height, phone, lang, words in (
            (1920, 1080, False, "en", "Two cards on one reader. It reads one card at a time, so take one away."),
            (390, 844, True, "ko", "리더기 하나에 카드가 두 장 있습니다")):
        page = open_page(browser, base_url, width, height, lang, phone=phone)
        errors = csp_errors(page)
        wait_board(page, table)
        table.loop.sink(TagsCrowded("r1"))  # what the poller reports when a reader finds two tags
        page.wait_for_selector("#table-notice:not([hidden])")
        text = notice_text(page)
        assert words in text, text
        if lang == "en":
            assert text.startswith(f"Refused on {SEAT_NAMES[1]}: "), text
        assert "two_tags" not in text and "seat:" not in text and "{" not in text and "r1" not in text, text
        shot(page, f"{'phone' if phone else 'tv'}-two-cards-{lang}")
        assert not errors, errors
        page.context.close()
