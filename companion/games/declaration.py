"""A game's declaration: everything the table, the page, the docs and the tests need from a game, said once in
its package's `__init__.py` as `GAME = Game(...)` (companion/games/README.md, "Adding a game")."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.rules import Rules
from companion.games.schema import ViewFields

if TYPE_CHECKING:
    from companion.games.binding import Binding

BOARD_SCRIPT = "board.js"
"""The page's renderer of a game's public view, a JS module in the game's package (see `Game.board_script`)."""

BOARD_STYLE = "board.css"
"""The board's own styles, in the game's package; optional."""


class DeclarationError(ValueError):
    """A game package whose declaration contradicts itself (a wrong id, seat counts out of range)."""


@dataclass(frozen=True)
class Game:
    """One game as the rest of the companion sees it; its id is its package's name and its rules' `name`."""

    rules: Rules
    """The engine (`RULES`)."""
    binding: Binding
    """The table binding (`BINDING`): inputs to actions, LEDs, the deck list, the page's fixed facts."""
    demo_seats: int
    """Seats `companion run --game <id>` and the tests' sample games start with."""
    fields: ViewFields
    """What each field of its views, log params and actions holds (seats, counts, cards...): the one declaration
    the page, i18n and the prompt builder read (the binding's `facts` carry it to the page)."""
    one_winner: bool = False
    """Every outcome has exactly one winning seat (the bot strength bench then has no random-seat baseline to
    measure: it is exactly 1/seats)."""

    def __post_init__(self) -> None:
        rules = self.rules
        if self.binding.game != rules.name:
            raise DeclarationError(f"{rules.name}: the binding is declared for {self.binding.game!r}")
        if not rules.min_seats <= self.demo_seats <= rules.max_seats:
            raise DeclarationError(f"{rules.name}: demo_seats {self.demo_seats} is outside "
                                   f"{rules.min_seats}..{rules.max_seats}")

    @property
    def id(self) -> str:
        """The game's id: its package's name, the key of its translations (`games.<id>`) and of its journal rows."""
        return self.rules.name

    @property
    def title(self) -> str:
        """The English title (the page shows the translated one)."""
        return self.rules.title

    @property
    def folder(self) -> Path:
        """The game's package folder (where its board script and styles are)."""
        module = sys.modules[type(self.rules).__module__]
        return Path(module.__file__ or "").resolve().parent

    @property
    def board_script(self) -> Path | None:
        """The page's renderer (`board.js`, exporting `default function(view, ctx)`), None when the game has none
        (the page then lists the view's fields)."""
        path = self.folder / BOARD_SCRIPT
        return path if path.is_file() else None

    @property
    def board_style(self) -> Path | None:
        """The board's styles (`board.css`), None when the game has none."""
        path = self.folder / BOARD_STYLE
        return path if path.is_file() else None
