"""Host and seat commands as typed values, each read from the web's JSON by one generic parser: a command's
dataclass says what it takes (its name in `command`, each field's check in its metadata or from its type hint),
so adding a command is adding its dataclass (and its place in `Command`)."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from types import MappingProxyType
from typing import Any, ClassVar, Mapping, TypeVar, get_args, get_type_hints

from companion.games.binding import Card
from companion.games.json_value import Json, JsonObject
from companion.table.card_values import CardError
from companion.table.core import command_fields as check
from companion.table.core.command_fields import PARSE, Check, internal, read
from companion.table.core.bots import Player
from companion.table.core.guide import GuideMode
from companion.table.core.timers import AtZero
from companion.table.refusal import Refusal
from companion.table.session import Components


@dataclass(frozen=True)
class Ping:
    """Answer at once (a caller waits until everything queued before it was handled)."""

    command: ClassVar[str] = "_ping"


@dataclass(frozen=True)
class Submit:
    """An action from a seat (None: the host acting directly; the engine alone judges it)."""

    command: ClassVar[str] = "submit"
    seat: int | None = read(check.seat_or_none("malformed", "a seat number"))
    action: JsonObject = read(check.action_object)
    source: str = read(check.as_text, default="api")
    version: str | None = read(check.version, default=None)
    """The seat state (`<game id>.<revision>`) the choice was made on, when a seat page sends it: a choice made on
    a prompt the table has since moved past is answered `stale_prompt` instead of being refused."""


@dataclass(frozen=True)
class NewGame:
    """Start a game; None fields take the table config's game. A running game is replaced only when `replace`
    says so (else the table refuses with `game_running`)."""

    command: ClassVar[str] = "new_game"
    posted: ClassVar[bool] = True
    game: str | None = read(check.UNKNOWN_GAME, default=None)
    seats: int | None = read(check.seat_count, default=None)
    options: JsonObject = read(check.options_object, default_factory=dict)
    components: Components | None = read(check.components, default=None)
    replace: bool = False
    bots: tuple[int, ...] = read(check.bot_seats, default=())
    """Seats the game's bot plays from the start (a game with digital components only)."""
    check_deck: bool = internal(True)
    """A physical game needs the kinds it reads enrolled (off for the config's game at boot, started before
    anyone could enroll: the host checks the deck before play)."""


@dataclass(frozen=True)
class Undo:
    """Take back the last player action and the chance actions after it."""

    command: ClassVar[str] = "undo"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class Redo:
    """Re-apply what the last undo took back, as journaled (before any new action)."""

    command: ClassVar[str] = "redo"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class EndGame:
    """The host ends the game."""

    command: ClassVar[str] = "end_game"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class Resume:
    """The host has checked the components after a restart: play on."""

    command: ClassVar[str] = "resume"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class EnrollMode:
    """Turn enrollment on or off (tags are then shown, not played)."""

    command: ClassVar[str] = "enroll_mode"
    posted: ClassVar[bool] = True
    on: bool


@dataclass(frozen=True)
class Enroll:
    """Say what a tag is; `game` None: the running game's."""

    command: ClassVar[str] = "enroll"
    posted: ClassVar[bool] = True
    uid: str = read(check.uid)
    kind: Json = read(check.as_is)
    value: Json = read(check.as_is)
    label: Json = read(check.as_is, default="")
    game: str | None = read(check.enroll_game, default=None)


@dataclass(frozen=True)
class ForgetCard:
    """Forget what a tag is."""

    command: ClassVar[str] = "forget_card"
    posted: ClassVar[bool] = True
    uid: str = read(check.uid)


@dataclass(frozen=True)
class ExportCards:
    """The registry as a deck file (one game's cards, if given)."""

    command: ClassVar[str] = "export_cards"
    game: str | None = None


@dataclass(frozen=True)
class ImportCards:
    """Enroll a whole checked deck in one transaction."""

    command: ClassVar[str] = "import_cards"
    posted: ClassVar[bool] = True
    cards: tuple[Card, ...] = read(check.deck, key="deck")


@dataclass(frozen=True)
class ExportRecord:
    """A finished game's record (it holds every secret): that game's, else the newest game's."""

    command: ClassVar[str] = "export_record"
    game_id: int | None = read(check.game_id_or_none, key="game", default=None)


@dataclass(frozen=True)
class ListGames:
    """Every finished game, newest first."""

    command: ClassVar[str] = "list_games"


@dataclass(frozen=True)
class ShareGame:
    """Make a replay link for one finished game, or revoke its links."""

    command: ClassVar[str] = "share_game"
    game_id: int = read(check.game_id, key="game")
    revoke: bool = False


@dataclass(frozen=True)
class SharedGame:
    """Which game a replay link opens."""

    command: ClassVar[str] = "shared_game"
    token: str = read(check.share_token)


@dataclass(frozen=True)
class HostState:
    """Everything the host console shows."""

    command: ClassVar[str] = "host_state"


@dataclass(frozen=True)
class GuideStart:
    """Start guided enrollment of a game's deck list at a seat count (validated by the core)."""

    command: ClassVar[str] = "guide_start"
    posted: ClassVar[bool] = True
    game: Json = read(check.as_is)
    seats: Json = read(check.as_is)
    mode: GuideMode = read(check.guide_mode, default=GuideMode.ENROLL)


@dataclass(frozen=True)
class GuideSetMode:
    """Switch the running guide to enrolling, checking tags, or verifying the deck."""

    command: ClassVar[str] = "guide_mode"
    posted: ClassVar[bool] = True
    mode: GuideMode = read(check.guide_mode)


@dataclass(frozen=True)
class GuideSkip:
    """Leave the next component of the list out."""

    command: ClassVar[str] = "guide_skip"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class GuideUndo:
    """Take back the last enrollment or skip of the guide."""

    command: ClassVar[str] = "guide_undo"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class GuideStop:
    """End guided enrollment (and enrollment mode)."""

    command: ClassVar[str] = "guide_stop"
    posted: ClassVar[bool] = True


@dataclass(frozen=True)
class SeatPlayer:
    """Hand a seat of the running game to its bot, or back to a person."""

    command: ClassVar[str] = "seat_player"
    posted: ClassVar[bool] = True
    seat: int = read(check.seat_number)
    player: Player = read(check.player)


@dataclass(frozen=True)
class SetTimer:
    """Set the advisory timer of one phase of a game (`seconds` None turns it off; `game` None: the running
    game's)."""

    command: ClassVar[str] = "set_timer"
    posted: ClassVar[bool] = True
    phase: str = read(check.phase)
    seconds: int | None = read(check.timer_seconds)
    game: str | None = read(check.UNKNOWN_GAME, default=None)


@dataclass(frozen=True)
class PauseTimers:
    """Stop every timer, keeping the time left (`on` False starts them again)."""

    command: ClassVar[str] = "pause_timers"
    posted: ClassVar[bool] = True
    on: bool


@dataclass(frozen=True)
class TimerChoice:
    """The host's choice once a timer ran out: wait, extend (by `seconds`, else the timer's length), or hand
    the timed seats to a bot."""

    command: ClassVar[str] = "timer_choice"
    posted: ClassVar[bool] = True
    choice: AtZero = read(check.timer_choice)
    seconds: int | None = read(check.extend_by, default=None)


@dataclass(frozen=True)
class BindTerminal:
    """Bind a terminal to a seat (None unbinds it)."""

    command: ClassVar[str] = "bind_terminal"
    terminal: str = read(check.terminal_id)
    seat: int | None = read(check.seat_or_none("bad_seat", "null (unbind) or a seat number"))


@dataclass(frozen=True)
class Announce:
    """The venue's announcement arrived (None: the venue took it down); the table's TV shows it until dismissed.
    Not a host command: the venue's link posts it."""

    announcement: JsonObject | None


@dataclass(frozen=True)
class DismissAnnouncement:
    """The host has read the venue's announcement: the TV stops showing it."""

    command: ClassVar[str] = "dismiss_announcement"
    posted: ClassVar[bool] = True


CommandT = TypeVar("CommandT")

POSTED = "posted"
"""A command class's flag: the host page posts it as `/api/host/<command>` with its fields as the JSON body (the
others have routes of their own, or are the table's)."""


Command = (Ping | Submit | NewGame | Undo | Redo | EndGame | Resume | EnrollMode | Enroll | ForgetCard | ExportCards
           | ImportCards | ExportRecord | HostState | BindTerminal | GuideStart | GuideSetMode | GuideSkip | GuideUndo
           | GuideStop | ListGames | ShareGame | SharedGame | Announce | DismissAnnouncement | SeatPlayer | SetTimer
           | PauseTimers | TimerChoice)


@dataclass(frozen=True)
class CommandSpec:
    """A command as the parser reads it: its dataclass, and each field read from the JSON (name, key, check;
    a field the JSON never sets is left out and keeps its default)."""

    type: type
    reads: tuple[tuple[str, str, Check, bool], ...]
    """(field name, JSON key, check, whether absent means the field's default)."""


def spec_of(cls: type) -> CommandSpec:
    """How to read `cls` from JSON: its fields' `Read` metadata, else a check from the field's type hint (bool:
    true or false, `str | None`: a string or null, Any: as given); TypeError for a field with neither."""
    hints = get_type_hints(cls)
    reads: list[tuple[str, str, Check, bool]] = []
    for f in fields(cls):
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if PARSE in f.metadata:
            how = f.metadata[PARSE]
            if how is not None:
                reads.append((f.name, how.key or f.name, how.check, has_default))
            continue
        implied = _by_hint(f.name, hints[f.name])
        if implied is None:
            raise TypeError(f"{cls.__name__}.{f.name}: give it a check (`read(check)`): its type says none")
        reads.append((f.name, f.name, implied, has_default))
    return CommandSpec(cls, tuple(reads))


def _by_hint(name: str, hint: Any) -> Check | None:
    """The check a field's type hint implies, if any."""
    if hint is bool:
        return check.flag(name)
    if hint is Any:
        return check.as_is
    if hint == (str | None):
        return check.optional_text("bad_field", lambda value: f"field {name!r} must be a string")
    return None


SPECS: Mapping[str, CommandSpec] = MappingProxyType(
    {cls.command: spec_of(cls) for cls in get_args(Command) if isinstance(getattr(cls, "command", None), str)})
"""Command name (as the web and the CLI say it) -> how its dataclass is read; read-only."""


def posted_commands() -> tuple[str, ...]:
    """The commands the host page posts by name (`/api/host/<command>`), in `Command`'s order."""
    return tuple(name for name, spec in SPECS.items() if getattr(spec.type, POSTED, False))


def parse_command(name: str, args: JsonObject) -> Command | Refusal:
    """The typed command for a name and JSON arguments, or a refusal with a stable code (unknown_command,
    bad_field, bad_setup, bad_uid, bad_deck, bad_terminal, bad_seat, bad_game_id, bad_share, malformed,
    unknown_bot, bad_timer, unknown_phase, bad_choice); the first bad field, in the dataclass's order, decides."""
    spec = SPECS.get(name)
    if spec is None:
        return Refusal("unknown_command", f"unknown command {name!r}")
    return read_command(spec, args)


def parse_as(cls: type[CommandT], args: JsonObject) -> CommandT | Refusal:
    """`parse_command` for a command known by its class (the table's own callers: a seat's submit)."""
    return read_command(SPECS[cls.command], args)  # type: ignore[attr-defined,return-value]


def read_command(spec: CommandSpec, args: JsonObject) -> Command | Refusal:
    """The command `spec` reads from JSON arguments, or the refusal of the first bad field."""
    if not isinstance(args, Mapping):
        return Refusal("bad_field", "the arguments are a JSON object")
    values: dict[str, Any] = {}
    try:
        for field_name, key, checked, has_default in spec.reads:
            if key in args or not has_default:
                values[field_name] = checked(args.get(key), args)
    except CardError as exc:
        return Refusal(exc.code, exc.message)
    except Refusal as exc:
        return exc
    return spec.type(**values)  # type: ignore[no-any-return]
