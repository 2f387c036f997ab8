"""Host and seat commands as typed values, validated once where the web's JSON becomes a command."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.games.binding import Card
from companion.games.contract import IllegalAction
from companion.hal.terminal_protocol import is_terminal_id
from companion.table.card_values import CardError, check_deck, normalise_uid
from companion.table.core.guide import GuideMode
from companion.table.core.timers import MAX_TIMER_S
from companion.table.refusal import Refusal
from companion.table.session import Components


@dataclass(frozen=True)
class Ping:
    """Answer at once (a caller waits until everything queued before it was handled)."""


@dataclass(frozen=True)
class Submit:
    """An action from a seat (None: the host acting directly; the engine alone judges it)."""

    seat: int | None
    action: Mapping[str, Any]
    source: str = "api"
    version: str | None = None
    """The seat state (`<game id>.<revision>`) the choice was made on, when a seat page sends it: a choice made on
    a prompt the table has since moved past is answered `stale_prompt` instead of being refused."""


@dataclass(frozen=True)
class NewGame:
    """Start a game; None fields take the table config's game. A running game is replaced only when `replace`
    says so (else the table refuses with `game_running`)."""

    game: str | None = None
    seats: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    components: Components | None = None
    replace: bool = False
    bots: tuple[int, ...] = ()
    """Seats the game's bot plays from the start (a game with digital components only)."""
    check_deck: bool = True
    """A physical game needs the kinds it reads enrolled (off for the config's game at boot, started before
    anyone could enroll: the host checks the deck before play)."""


@dataclass(frozen=True)
class Undo:
    """Take back the last player action and the chance actions after it."""


@dataclass(frozen=True)
class Redo:
    """Re-apply what the last undo took back, as journaled (before any new action)."""


@dataclass(frozen=True)
class EndGame:
    """The host ends the game."""


@dataclass(frozen=True)
class Resume:
    """The host has checked the components after a restart: play on."""


@dataclass(frozen=True)
class EnrollMode:
    """Turn enrollment on or off (tags are then shown, not played)."""

    on: bool


@dataclass(frozen=True)
class Enroll:
    """Say what a tag is; `game` None: the running game's."""

    uid: str
    kind: Any
    value: Any
    label: Any = ""
    game: str | None = None


@dataclass(frozen=True)
class ForgetCard:
    """Forget what a tag is."""

    uid: str


@dataclass(frozen=True)
class ExportCards:
    """The registry as a deck file (one game's cards, if given)."""

    game: str | None = None


@dataclass(frozen=True)
class ImportCards:
    """Enroll a whole checked deck in one transaction."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ExportRecord:
    """A finished game's record (it holds every secret): that game's, else the newest game's."""

    game_id: int | None = None


@dataclass(frozen=True)
class ListGames:
    """Every finished game, newest first."""


@dataclass(frozen=True)
class ShareGame:
    """Make a replay link for one finished game, or revoke its links."""

    game_id: int
    revoke: bool = False


@dataclass(frozen=True)
class SharedGame:
    """Which game a replay link opens."""

    token: str


@dataclass(frozen=True)
class HostState:
    """Everything the host console shows."""


@dataclass(frozen=True)
class GuideStart:
    """Start guided enrollment of a game's deck list at a seat count (validated by the core)."""

    game: Any
    seats: Any
    mode: GuideMode = GuideMode.ENROLL


@dataclass(frozen=True)
class GuideSetMode:
    """Switch the running guide to enrolling, checking tags, or verifying the deck."""

    mode: GuideMode


@dataclass(frozen=True)
class GuideSkip:
    """Leave the next component of the list out."""


@dataclass(frozen=True)
class GuideUndo:
    """Take back the last enrollment or skip of the guide."""


@dataclass(frozen=True)
class GuideStop:
    """End guided enrollment (and enrollment mode)."""


@dataclass(frozen=True)
class SeatPlayer:
    """Hand a seat of the running game to its bot, or back to a person (`player`: "bot" or "human")."""

    seat: int
    player: str


@dataclass(frozen=True)
class SetTimer:
    """Set the advisory timer of one phase of a game (`seconds` None turns it off; `game` None: the running
    game's)."""

    phase: str
    seconds: int | None
    game: str | None = None


@dataclass(frozen=True)
class PauseTimers:
    """Stop every timer, keeping the time left (`on` False starts them again)."""

    on: bool


@dataclass(frozen=True)
class TimerChoice:
    """The host's choice once a timer ran out: wait, extend (by `seconds`, else the timer's length), or hand
    the timed seats to a bot."""

    choice: str
    seconds: int | None = None


@dataclass(frozen=True)
class BindTerminal:
    """Bind a terminal to a seat (None unbinds it)."""

    terminal: str
    seat: int | None


@dataclass(frozen=True)
class Announce:
    """The venue's announcement arrived (None: the venue took it down); the table's TV shows it until dismissed."""

    announcement: Mapping[str, Any] | None


@dataclass(frozen=True)
class DismissAnnouncement:
    """The host has read the venue's announcement: the TV stops showing it."""


Command = (Ping | Submit | NewGame | Undo | Redo | EndGame | Resume | EnrollMode | Enroll | ForgetCard | ExportCards
           | ImportCards | ExportRecord | HostState | BindTerminal | GuideStart | GuideSetMode | GuideSkip | GuideUndo
           | GuideStop | ListGames | ShareGame | SharedGame | Announce | DismissAnnouncement | SeatPlayer | SetTimer
           | PauseTimers | TimerChoice)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _submit(args: Mapping[str, Any]) -> Submit:
    action, seat = args.get("action"), args.get("seat")
    if not isinstance(action, dict):
        raise Refusal("malformed", "an action is a JSON object")
    if seat is not None and not _is_int(seat):
        raise Refusal("malformed", f"seat must be a seat number, not {seat!r}"[:200])
    version = args.get("version")
    if version is not None and not isinstance(version, str):
        raise Refusal("malformed", "version is the seat state's version string")
    return Submit(seat, dict(action), str(args.get("source", "api")), version)


def _new_game(args: Mapping[str, Any]) -> NewGame:
    game, seats, options = args.get("game"), args.get("seats"), args.get("options") or {}
    if game is not None and not isinstance(game, str):
        raise Refusal("bad_setup", f"unknown game {game!r}"[:200])
    if seats is not None and not _is_int(seats):
        raise Refusal("bad_setup", f"seats must be a number, not {seats!r}"[:200])
    if not isinstance(options, dict):
        raise Refusal("bad_setup", "options must be a JSON object")
    raw = args.get("components")
    try:
        components = None if raw is None else Components.parse(raw)
    except IllegalAction as exc:
        raise Refusal(exc.code, exc.message) from None
    replacing = args.get("replace", False)
    if not isinstance(replacing, bool):
        raise Refusal("bad_field", "field 'replace' must be true or false")
    bots = args.get("bots") or []
    if not isinstance(bots, list) or not all(_is_int(s) for s in bots) or len(set(bots)) != len(bots):
        raise Refusal("bad_seat", "field 'bots' is a list of distinct seat numbers")
    return NewGame(game, seats, dict(options), components, replacing, tuple(sorted(bots)))


def _seat_player(args: Mapping[str, Any]) -> SeatPlayer:
    seat, player = args.get("seat"), args.get("player")
    if not _is_int(seat):
        raise Refusal("bad_seat", f"seat must be a seat number, not {seat!r}"[:200])
    if player not in ("bot", "human"):
        raise Refusal("unknown_bot", f"a seat is played by 'bot' or 'human', not {player!r}"[:200])
    return SeatPlayer(seat, player)


def _seconds(value: Any, field_name: str = "seconds", allow_none: bool = True) -> int | None:
    if value is None and allow_none:
        return None
    if not _is_int(value) or not 1 <= value <= MAX_TIMER_S:
        raise Refusal("bad_timer", f"{field_name} is a whole number of seconds from 1 to {MAX_TIMER_S}, not "
                                   f"{value!r}"[:200])
    return int(value)


def _set_timer(args: Mapping[str, Any]) -> SetTimer:
    phase, game = args.get("phase"), args.get("game")
    if not isinstance(phase, str) or not phase:
        raise Refusal("unknown_phase", f"a timer is set for a phase of the game, not {phase!r}"[:200])
    if game is not None and not isinstance(game, str):
        raise Refusal("bad_setup", f"unknown game {game!r}"[:200])
    if "seconds" not in args:
        raise Refusal("bad_timer", "field 'seconds' is required: a whole number of seconds, or null (off)")
    return SetTimer(phase, _seconds(args.get("seconds")), game)


def _timer_choice(args: Mapping[str, Any]) -> TimerChoice:
    choice = args.get("choice")
    if choice not in ("wait", "extend", "bot"):
        raise Refusal("bad_choice", f"the choice at zero is wait, extend or bot, not {choice!r}"[:200])
    return TimerChoice(choice, _seconds(args.get("seconds")) if choice == "extend" else None)


def _flag(args: Mapping[str, Any], name: str) -> bool:
    value = args.get(name)
    if not isinstance(value, bool):
        raise Refusal("bad_field", f"field {name!r} must be true or false")
    return value


def _enroll_mode(args: Mapping[str, Any]) -> EnrollMode:
    return EnrollMode(_flag(args, "on"))


def _enroll(args: Mapping[str, Any]) -> Enroll:
    game = args.get("game")
    if game is not None and not isinstance(game, str):
        raise CardError("bad_card", f"unknown game {game!r}"[:200])
    return Enroll(normalise_uid(args.get("uid")), args.get("kind"), args.get("value"), args.get("label", ""), game)


def _guide_mode(value: Any) -> GuideMode:
    try:
        return GuideMode(value)
    except ValueError:
        raise Refusal("bad_field", "field 'mode' must be enroll, check or verify") from None


def _guide_start(args: Mapping[str, Any]) -> GuideStart:
    return GuideStart(args.get("game"), args.get("seats"), _guide_mode(args.get("mode", "enroll")))


def _export_cards(args: Mapping[str, Any]) -> ExportCards:
    game = args.get("game")
    if game is not None and not isinstance(game, str):
        raise Refusal("bad_field", "field 'game' must be a string")
    return ExportCards(game)


def _game_id(args: Mapping[str, Any], required: bool = True) -> int | None:
    game = args.get("game")
    if game is None and not required:
        return None
    if not _is_int(game) or game < 1:
        raise Refusal("bad_game_id", f"a game is named by its number, not {game!r}"[:200])
    return int(game)


def _share_game(args: Mapping[str, Any]) -> ShareGame:
    revoke = args.get("revoke", False)
    if not isinstance(revoke, bool):
        raise Refusal("bad_field", "field 'revoke' must be true or false")
    return ShareGame(int(_game_id(args) or 0), revoke)


def _shared_game(args: Mapping[str, Any]) -> SharedGame:
    token = args.get("token")
    if not isinstance(token, str) or not 0 < len(token) <= 64:
        raise Refusal("bad_share", "that replay link is not valid")
    return SharedGame(token)


def _bind_terminal(args: Mapping[str, Any]) -> BindTerminal:
    terminal, seat = args.get("terminal"), args.get("seat")
    if not is_terminal_id(terminal):
        raise Refusal("bad_terminal", "a terminal id is 1 to 64 letters, digits or _ . : - "
                                      f"(as the terminal announces it), not {terminal!r}"[:200])
    if seat is not None and not _is_int(seat):
        raise Refusal("bad_seat", f"seat must be null (unbind) or a seat number, not {seat!r}"[:200])
    return BindTerminal(terminal, seat)


PARSERS: dict[str, Callable[[Mapping[str, Any]], Command]] = {
    "_ping": lambda args: Ping(),
    "submit": _submit,
    "new_game": _new_game,
    "undo": lambda args: Undo(),
    "redo": lambda args: Redo(),
    "end_game": lambda args: EndGame(),
    "resume": lambda args: Resume(),
    "enroll_mode": _enroll_mode,
    "enroll": _enroll,
    "forget_card": lambda args: ForgetCard(normalise_uid(args.get("uid"))),
    "export_cards": _export_cards,
    "import_cards": lambda args: ImportCards(tuple(check_deck(args.get("deck")))),
    "export_record": lambda args: ExportRecord(_game_id(args, required=False)),
    "list_games": lambda args: ListGames(),
    "share_game": _share_game,
    "shared_game": _shared_game,
    "host_state": lambda args: HostState(),
    "bind_terminal": _bind_terminal,
    "guide_start": _guide_start,
    "guide_mode": lambda args: GuideSetMode(_guide_mode(args.get("mode"))),
    "guide_skip": lambda args: GuideSkip(),
    "guide_undo": lambda args: GuideUndo(),
    "guide_stop": lambda args: GuideStop(),
    "dismiss_announcement": lambda args: DismissAnnouncement(),
    "seat_player": _seat_player,
    "set_timer": _set_timer,
    "pause_timers": lambda args: PauseTimers(_flag(args, "on")),
    "timer_choice": _timer_choice,
}
"""Command name (as the web and the CLI say it) -> parser; read-only."""


def parse_command(name: str, args: Mapping[str, Any]) -> Command | Refusal:
    """The typed command for a name and JSON arguments, or a refusal with a stable code (unknown_command,
    bad_field, bad_setup, bad_uid, bad_deck, bad_terminal, bad_seat, bad_game_id, bad_share, malformed,
    unknown_bot, bad_timer, unknown_phase, bad_choice)."""
    parser = PARSERS.get(name)
    if parser is None:
        return Refusal("unknown_command", f"unknown command {name!r}")
    if not isinstance(args, Mapping):
        return Refusal("bad_field", "the arguments are a JSON object")
    try:
        return parser(args)
    except (Refusal, CardError) as exc:
        return exc if isinstance(exc, Refusal) else Refusal(exc.code, exc.message)
