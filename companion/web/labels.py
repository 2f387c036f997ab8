"""Deck lists and label sheets for guided enrollment: `/host/decks/<game>/<seats>.json` (what the table reads,
in the guided order) and `/host/labels/<game>/<seats>.svg` (one small label per component, both languages, A4 or
Letter, a page at a time), drawn here as SVG with local fonts only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence
from xml.sax.saxutils import escape

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from companion.games.binding import DeckItem, get_binding
from companion.games.registry import game_names, get_rules
from companion.web.auth import require_host
from companion.web.errors import ApiError, small_number

bp = Blueprint("labels", __name__)

FONT = "'Noto Sans CJK KR', 'DejaVu Sans', sans-serif"


@dataclass(frozen=True)
class Paper:
    """A sheet size and the label grid printed on it (millimetres)."""

    name: str
    width: float
    height: float
    columns: int = 4
    rows: int = 12
    margin: float = 10.0
    gap: float = 2.0

    @property
    def per_page(self) -> int:
        """Labels on one sheet."""
        return self.columns * self.rows

    def cell(self) -> tuple[float, float]:
        """One label's width and height."""
        w = (self.width - 2 * self.margin - (self.columns - 1) * self.gap) / self.columns
        h = (self.height - 2 * self.margin - 8 - (self.rows - 1) * self.gap) / self.rows
        return w, h


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}


@dataclass(frozen=True)
class Label:
    """One component's label: its place in the guided order, names, number among those alike, seat colour."""

    position: int
    en: str
    ko: str
    number: str
    colour: str | None
    sample: bool


def deck_items(game: str, seats: int) -> tuple[DeckItem, ...]:
    """The deck list, or ApiError unknown_game / bad_seat_count / no_deck_list (changing nothing)."""
    if game not in game_names():
        raise ApiError("unknown_game", f"unknown game {game!r}"[:200])
    rules = get_rules(game)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise ApiError("bad_seat_count", f"{game} is played with {rules.min_seats} to {rules.max_seats} seats")
    items = get_binding(game).deck_list(seats)
    if not items:
        raise ApiError("no_deck_list", f"{game} has no list of components to enroll")
    return items


def labels_of(items: Sequence[DeckItem], colours: Sequence[str | None]) -> list[Label]:
    """Every component's label, in the guided order (seat colours from the table config, where it has one)."""
    out: list[Label] = []
    for item in items:
        colour = colours[item.seat] if item.seat is not None and item.seat < len(colours) else None
        for i in range(1, item.count + 1):
            number = f"{i}/{item.count}" if item.count > 1 else ""
            out.append(Label(len(out) + 1, item.en, item.ko, number, colour, item.sample))
    return out


def _fit(text: str, width_mm: float, size: float) -> float:
    """A font size at which `text` fits the width (Hangul counts as wide)."""
    units = sum(1.0 if ord(ch) > 0x2E7F else 0.56 for ch in text) or 1.0
    return min(size, width_mm / units)


def sheet_svg(title: str, labels: Sequence[Label], paper: Paper, page: int, pages: int) -> str:
    """One printable sheet of labels as SVG (mm units)."""
    w, h = paper.cell()
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{paper.width}mm" height="{paper.height}mm" '
             f'viewBox="0 0 {paper.width} {paper.height}" font-family="{escape(FONT)}">',
             f'<rect width="{paper.width}" height="{paper.height}" fill="#fff"/>',
             f'<text x="{paper.margin}" y="{paper.margin + 3}" font-size="4" fill="#000">{escape(title)} · '
             f'{page}/{pages} · {paper.name}</text>']
    top = paper.margin + 8
    for n, label in enumerate(labels):
        col, row = n % paper.columns, n // paper.columns
        x, y = paper.margin + col * (w + paper.gap), top + row * (h + paper.gap)
        parts.append(f'<g class="label" data-position="{label.position}">'
                     f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" rx="1.5" fill="none" '
                     f'stroke="#888" stroke-width="0.3" stroke-dasharray="1 1"/>')
        text_x = x + 2
        if label.colour:
            parts.append(f'<rect x="{x + 1.5:.2f}" y="{y + 1.5:.2f}" width="4" height="{h - 3:.2f}" rx="0.8" '
                         f'fill="{escape(label.colour)}" stroke="#000" stroke-width="0.2"/>')
            text_x = x + 7
        room = x + w - 2 - text_x
        en = f"{label.en} {label.number}".strip()
        ko = f"{label.ko} {label.number}".strip()
        parts.append(f'<text x="{text_x:.2f}" y="{y + h * 0.42:.2f}" font-size="{_fit(en, room, 3.4):.2f}" '
                     f'font-weight="bold" fill="#000">{escape(en)}</text>')
        parts.append(f'<text x="{text_x:.2f}" y="{y + h * 0.78:.2f}" font-size="{_fit(ko, room, 3.2):.2f}" '
                     f'fill="#000">{escape(ko)}</text>')
        mark = f"#{label.position}" + (" · sample / 샘플" if label.sample else "")
        parts.append(f'<text x="{x + w - 1.5:.2f}" y="{y + h - 1.2:.2f}" font-size="1.9" text-anchor="end" '
                     f'fill="#555">{escape(mark)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def _seat_colours() -> list[str | None]:
    seats = current_app.extensions["table"].public_state().get("seats") or []
    return [s.get("colour") if isinstance(s, dict) else None for s in seats]


@bp.get("/host/decks/<game>/<int:seats>.json")
def deck(game: str, seats: int) -> Any:
    """The deck list of a game at a seat count, in the guided order, with each kind's words."""
    require_host(post=False)
    items = deck_items(game, seats)
    words = get_binding(game).kind_words
    return jsonify(ok=True, game=game, seats=seats, items=[i.as_json() for i in items],
                   total=sum(i.count for i in items),
                   pages={k: max(1, -(-sum(i.count for i in items) // p.per_page)) for k, p in PAPERS.items()},
                   kinds={k: {"en": v[0], "ko": v[1]} for k, v in words.items()})


@bp.get("/host/labels/<game>/<int:seats>.svg")
def labels(game: str, seats: int) -> Response:
    """One page of the label sheet: `paper` a4 (default) or letter, `page` from 1."""
    require_host(post=False)
    paper = PAPERS.get(request.args.get("paper", "a4"))
    if paper is None:
        raise ApiError("bad_field", "paper is a4 or letter")
    labels_all = labels_of(deck_items(game, seats), _seat_colours())
    pages = max(1, -(-len(labels_all) // paper.per_page))
    n = small_number(request.args.get("page", "1"))
    if n is None or not 1 <= n <= pages:
        raise ApiError("bad_field", f"page is 1 to {pages}")
    chunk = labels_all[(n - 1) * paper.per_page:n * paper.per_page]
    title = f"{get_rules(game).title} · {seats} seats / {seats}인"
    body = sheet_svg(title, chunk, paper, n, pages)
    return Response(body, mimetype="image/svg+xml", headers={"Cache-Control": "no-store", "X-Pages": str(pages)})


def register(app: Flask) -> None:
    """Add the deck-list and label-sheet routes to an app."""
    app.register_blueprint(bp)
