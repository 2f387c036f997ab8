"""The table's configuration: TOML (tomllib) into frozen dataclasses; unknown keys are errors with a did-you-mean."""

from __future__ import annotations

import difflib
import ipaddress
import re
import tomllib
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urlsplit

from companion.errors import ConfigFault

BACKEND_NAMES = ("mock", "pi")
COMPONENT_MODES = ("digital", "physical")
ZONE_RE = re.compile(r"^[a-z_]+(:[a-z0-9_]+)?$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_CONFIRM_POLLS = 5
"""More would delay every placement for no gain: a resting tag answers every poll."""
THREADS = (8, 64)
"""Server threads for ordinary requests (live-update streams have their own, `web.streams`)."""
STREAMS = (1, 256)
MAX_PIXELS = 2048
"""Far above any table's strip; a bigger number is a typo that would allocate a frame that size."""
MAX_NESTING = 20
"""A table config is at most a few levels deep; deeper TOML is refused before it is parsed."""
BOM = "\ufeff"
DEFAULT_SPI_HZ = 1_000_000
"""A reader bus's clock unless `[[spi]] spi_hz` says otherwise: 3.6 times slower than the rise-time arithmetic
allows for the reference build (5 readers on 30 cm leads, companion/hal/spi_bus.py), and polling is bound by the
chip's time on air, not by the clock."""
SPI_HZ = (10_000, 10_000_000)
"""The MFRC522's SPI runs up to 10 Mbit/s."""
MAX_LEAD_CM = 50
"""The longest SPI lead the builds support: beyond it the seat readers live in the seat terminals."""
READER_GAINS_DB = (18, 23, 33, 38, 43, 48)
"""MFRC522 receiver gains (RFCfgReg RxGain)."""
PI_MODELS = ("pi4", "pi5")
VENUE_SCHEMES = ("mqtt", "mqtts")
TABLE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
"""A venue table id (also its broker account and topic level): no MQTT wildcard, separator or upper case."""
KEEPALIVE_S = (5, 600)


class ConfigError(ConfigFault):
    """A bad config: `code` is stable, `where` names the key (dotted path), message says what to do."""

    def __init__(self, code: str, where: str, message: str) -> None:
        super().__init__(code, message, {"where": where})
        self.where = where
        self.args = (f"{code}: {where}: {message}" if where else f"{code}: {message}",)


@dataclass(frozen=True)
class SeatConfig:
    """A seat position at the table: its name, LED colour and the terminal bound to it; the page, the terminals
    and the LEDs all take a seat's name and colour from here."""

    name: str = ""
    """A proper name, shown as written; empty: the page says "Seat N" in the reader's language."""
    colour: str = "#ffffff"
    terminal: str | None = None

    @cached_property  # every publish paints every seat: parsed once per seat config
    def rgb(self) -> tuple[int, int, int]:
        """The colour as (r, g, b) for the LEDs."""
        return (int(self.colour[1:3], 16), int(self.colour[3:5], 16), int(self.colour[5:7], 16))


@dataclass(frozen=True)
class ReaderConfig:
    """An RFID reader: which logical zone it serves and where it is wired (pi backend)."""

    name: str
    zone: str
    bus: int = 1
    device: int = 0
    cs: int | None = None
    rst: int | None = None
    irq: int | None = None
    gain_db: int = 33
    """Receiver gain (18, 23, 33, 38, 43 or 48 dB): more reads farther and hears a neighbour's tag sooner."""
    antenna_switching: bool = False
    """Field on only while this reader is polled (5 ms more per poll): for two readers that cannot be moved apart."""


@dataclass(frozen=True)
class SpiBusConfig:
    """One SPI bus the Pi's readers share: its clock and its longest lead (the timing check uses both)."""

    bus: int
    spi_hz: int = DEFAULT_SPI_HZ
    lead_cm: int = 30


@dataclass(frozen=True)
class PowerConfig:
    """What the table's supplies are rated for (companion/hal/power.py checks every load against them)."""

    pi: str = "pi4"
    """pi4 or pi5: the board's own draw and its official supply."""
    reader_rail_ma: int = 0
    """The 3.3 V regulator feeding the Pi's readers, in mA; 0: the Pi's own 3V3 header pins."""
    led_supply_ma: int = 4000
    """The strip's 5 V supply."""
    hub_ma: int = 0
    """The powered USB hub's supply (the seat terminals draw from it)."""
    hub_ports: int = 0


@dataclass(frozen=True)
class LedZone:
    """A run of pixels lighting one zone."""

    zone: str
    start: int
    count: int


@dataclass(frozen=True)
class LedConfig:
    """The WS281x strip: length, wiring and which pixels light which zone."""

    pixels: int = 0
    pin: int = 10
    mode: str = "spi"
    brightness: int = 64
    max_milliamps: int = 3500
    """The strip's current budget: every frame is scaled to stay within it (default: a 4 A supply, 0.5 A spare)."""
    zones: tuple[LedZone, ...] = ()


@dataclass(frozen=True)
class ButtonConfig:
    """A push button on a GPIO pin that means `key` for `seat`."""

    pin: int
    seat: int
    key: str


@dataclass(frozen=True)
class PollingConfig:
    """Reader polling timing."""

    interval_ms: int = 20
    removal_ms: int = 150
    confirm_polls: int = 2
    """Consecutive polls that must read a new UID before it counts as placed (1: the first read counts)."""


@dataclass(frozen=True)
class WebConfig:
    """The local page: address, host PIN (None: a random one is printed at start), server threads, and the
    address phones follow from the seat QR codes (None: found from the request or the LAN address)."""

    host: str = "127.0.0.1"
    port: int = 8000
    host_pin: str | None = None
    threads: int = 16
    public_url: str | None = None
    streams: int = 64
    """Live-update streams open at once; one more is refused with 503 stream_limit."""
    allowed_hosts: tuple[str, ...] = ()
    """More names (or addresses) the table answers to, besides its own addresses, its host name, `localhost` and
    `public_url`'s host: a request naming any other Host is refused (docs/SECURITY.md, DNS rebinding)."""


@dataclass(frozen=True)
class TerminalsConfig:
    """Where seat terminals are: serial ports or globs (e.g. "/dev/ttyACM*"), and whether to also find
    MicroPython Picos by USB id. The pi backend discovers by default; on the mock backend configured ports make
    the seat terminals real (a Pico on a laptop playing the simulated table), else they are the in-memory ones."""

    ports: tuple[str, ...] = ()
    discover: bool | None = None
    """None: the backend's default (pi: yes, mock: no)."""
    count: int = 0
    """Seat terminals on the hub (for the power budget); what each has is below (the firmware's config.py)."""
    reader: bool = True
    display: bool = False
    pixels: int = 4
    pixel_brightness: int = 51
    """The firmware's PIXEL_BRIGHTNESS cap, 0..255."""


@dataclass(frozen=True)
class VenueConfig:
    """Where the table reports to a venue over MQTT (docs/VENUE.md): the broker (`mqtt://host:1883` or
    `mqtts://host:8883`), this table's id, its broker account and password file, the CA that signed the broker's
    certificate (mqtts; None: the system's CAs) and the keep-alive that bounds how soon it shows offline."""

    broker: str
    table: str
    password_file: str
    username: str | None = None
    """None: the table id (`companion venue init` makes one account per table, named by its id)."""
    ca_file: str | None = None
    keepalive: int = 15

    @property
    def account(self) -> str:
        """The broker account the table logs in with."""
        return self.username or self.table


@dataclass(frozen=True)
class BotsConfig:
    """Bots in seats: how long a bot seems to think before it plays (uniform between the two, in ms)."""

    pause_min_ms: int = 1500
    pause_max_ms: int = 4000


MAX_BOT_PAUSE_MS = 60_000
"""A bot that thinks longer than a minute is a typo in the config, not a human-looking pause."""


@dataclass(frozen=True)
class GameConfig:
    """The game a fresh table starts with."""

    name: str = "secret_hitler"
    seats: int = 7
    components: str = "digital"


@dataclass(frozen=True)
class TableConfig:
    """A whole table: backend, seats, readers, LEDs, buttons, web, data directory."""

    name: str = "table"
    backend: str = "mock"
    data_dir: str | None = None
    game: GameConfig = field(default_factory=GameConfig)
    web: WebConfig = field(default_factory=WebConfig)
    polling: PollingConfig = field(default_factory=PollingConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    seats: tuple[SeatConfig, ...] = ()
    readers: tuple[ReaderConfig, ...] = ()
    buttons: tuple[ButtonConfig, ...] = ()
    terminals: TerminalsConfig = field(default_factory=TerminalsConfig)
    spi: tuple[SpiBusConfig, ...] = ()
    power: PowerConfig = field(default_factory=PowerConfig)
    venue: VenueConfig | None = None
    """None: the table reports to no venue."""
    bots: BotsConfig = field(default_factory=BotsConfig)

    def spi_bus(self, bus: int) -> SpiBusConfig:
        """A bus's `[[spi]]` settings, or the defaults."""
        return next((s for s in self.spi if s.bus == bus), SpiBusConfig(bus))

    def reader_zones(self) -> dict[str, str]:
        """Reader name -> zone."""
        return {r.name: r.zone for r in self.readers}

    def terminal_seats(self) -> dict[str, int]:
        """Terminal id -> seat index."""
        return {s.terminal: i for i, s in enumerate(self.seats) if s.terminal}


_LISTS: dict[str, type] = {"seats": SeatConfig, "readers": ReaderConfig, "buttons": ButtonConfig,
                           "spi": SpiBusConfig}
_TABLES: dict[str, type] = {"game": GameConfig, "web": WebConfig, "polling": PollingConfig, "leds": LedConfig,
                            "terminals": TerminalsConfig, "power": PowerConfig, "venue": VenueConfig,
                            "bots": BotsConfig}


def _did_you_mean(key: str, known: list[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(known))})"


def _check_type(value: Any, annotation: str, where: str) -> Any:
    wants_none = "None" in annotation
    if value is None and wants_none:
        return None
    if annotation.startswith("int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError("config_type", where, f"expected an integer, got {value!r}")
    elif annotation.startswith("str"):
        if not isinstance(value, str):
            raise ConfigError("config_type", where, f"expected a string, got {value!r}")
    return value


def _build(cls: type, raw: Any, where: str) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError("config_type", where, f"expected a table, got {type(raw).__name__}")
    known = {f.name: f for f in fields(cls)}
    for key in raw:
        if key not in known:
            raise ConfigError("config_unknown_key", f"{where}.{key}".lstrip("."),
                              f"unknown key{_did_you_mean(key, list(known))}")
    values: dict[str, Any] = {}
    for name, value in raw.items():
        path = f"{where}.{name}".lstrip(".")
        annotation = str(known[name].type)
        if cls is LedConfig and name == "zones":
            if not isinstance(value, list):
                raise ConfigError("config_type", path, "expected an array of tables [[leds.zones]]")
            values[name] = tuple(_build(LedZone, item, f"{path}[{i}]") for i, item in enumerate(value))
        elif cls is TableConfig and name in _LISTS:
            if not isinstance(value, list):
                raise ConfigError("config_type", path, f"expected an array of tables [[{name}]]")
            values[name] = tuple(_build(_LISTS[name], item, f"{path}[{i}]") for i, item in enumerate(value))
        elif cls is TableConfig and name in _TABLES:
            values[name] = _build(_TABLES[name], value, path)
        elif cls is TerminalsConfig and name == "ports":
            if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
                raise ConfigError("config_type", path, "expected an array of port paths or globs")
            values[name] = tuple(value)
        elif cls is WebConfig and name == "allowed_hosts":
            if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
                raise ConfigError("config_type", path, "expected an array of host names, e.g. [\"table.example\"]")
            values[name] = tuple(value)
        elif (cls is TerminalsConfig and name in ("discover", "reader", "display")) or (
                cls is ReaderConfig and name == "antenna_switching"):
            if not isinstance(value, bool):
                raise ConfigError("config_type", path, f"expected true or false, got {value!r}")
            values[name] = value
        else:
            values[name] = _check_type(value, annotation, path)
    missing = [f.name for f in fields(cls) if f.name not in raw and _required(f)]
    if missing:
        raise ConfigError("config_missing_key", where or "(top)", f"missing {', '.join(missing)}")
    return cls(**values)


def _required(f: Any) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


def _validate(cfg: TableConfig) -> TableConfig:
    if cfg.backend not in BACKEND_NAMES:
        raise ConfigError("config_bad_value", "backend",
                          f"unknown backend {cfg.backend!r}{_did_you_mean(cfg.backend, list(BACKEND_NAMES))}")
    if cfg.game.components not in COMPONENT_MODES:
        raise ConfigError("config_bad_value", "game.components", f"expected one of {', '.join(COMPONENT_MODES)}")
    if not 1 <= cfg.web.port <= 65535:
        raise ConfigError("config_bad_value", "web.port", f"port {cfg.web.port} out of range 1..65535")
    _check_host(cfg.web.host)
    if not THREADS[0] <= cfg.web.threads <= THREADS[1]:
        raise ConfigError("config_bad_value", "web.threads", f"threads is {THREADS[0]}..{THREADS[1]} (ordinary "
                                                             f"requests; live-update streams have their own)")
    if not STREAMS[0] <= cfg.web.streams <= STREAMS[1]:
        raise ConfigError("config_bad_value", "web.streams", f"streams is {STREAMS[0]}..{STREAMS[1]}")
    if cfg.web.host_pin is not None and not re.fullmatch(r"\d{6,12}", cfg.web.host_pin):
        raise ConfigError("config_bad_value", "web.host_pin", "the host PIN is 6 to 12 digits")
    if cfg.web.public_url is not None:
        _check_public_url(cfg.web.public_url)
    for i, name in enumerate(cfg.web.allowed_hosts):
        _check_allowed_host(name, f"web.allowed_hosts[{i}]")
    for i, s in enumerate(cfg.seats):
        if not COLOUR_RE.match(s.colour):
            raise ConfigError("config_bad_value", f"seats[{i}].colour", f"expected #rrggbb, got {s.colour!r}")
    terminals = [s.terminal for s in cfg.seats if s.terminal]
    if len(set(terminals)) != len(terminals):
        raise ConfigError("config_duplicate", "seats", "a terminal id is bound to two seats")
    names = [r.name for r in cfg.readers]
    if len(set(names)) != len(names):
        raise ConfigError("config_duplicate", "readers", "two readers share a name")
    for i, r in enumerate(cfg.readers):
        if not ZONE_RE.match(r.zone):
            raise ConfigError("config_bad_value", f"readers[{i}].zone", f"bad zone name {r.zone!r} (e.g. 'seat:3', 'board')")
    if not 0 <= cfg.leds.pixels <= MAX_PIXELS:
        raise ConfigError("config_bad_value", "leds.pixels", f"pixels is 0..{MAX_PIXELS}")
    if not 0 <= cfg.leds.brightness <= 255:
        raise ConfigError("config_bad_value", "leds.brightness", "brightness is 0..255")
    if cfg.leds.max_milliamps < 100:
        raise ConfigError("config_bad_value", "leds.max_milliamps", "the LED current budget is at least 100 mA")
    for i, z in enumerate(cfg.leds.zones):
        if z.start < 0 or z.count < 1 or z.start + z.count > cfg.leds.pixels:
            raise ConfigError("config_bad_value", f"leds.zones[{i}]",
                              f"pixels {z.start}..{z.start + z.count - 1} do not fit a {cfg.leds.pixels}-pixel strip")
    for i, b in enumerate(cfg.buttons):
        if not 0 <= b.seat < max(1, len(cfg.seats)):
            raise ConfigError("config_bad_value", f"buttons[{i}].seat", f"no seat {b.seat} in this table")
    pins = [b.pin for b in cfg.buttons]
    if len(set(pins)) != len(pins):
        raise ConfigError("config_duplicate", "buttons", "two buttons share a pin")
    _validate_hardware(cfg)
    if cfg.polling.interval_ms < 1 or cfg.polling.removal_ms < cfg.polling.interval_ms:
        raise ConfigError("config_bad_value", "polling", "interval_ms >= 1 and removal_ms >= interval_ms")
    if not 1 <= cfg.polling.confirm_polls <= MAX_CONFIRM_POLLS:
        raise ConfigError("config_bad_value", "polling.confirm_polls",
                          f"confirm_polls is 1..{MAX_CONFIRM_POLLS} (consecutive reads before a tag counts as placed)")
    if cfg.venue is not None:
        _check_venue(cfg.venue)
    if not 0 <= cfg.bots.pause_min_ms <= cfg.bots.pause_max_ms <= MAX_BOT_PAUSE_MS:
        raise ConfigError("config_bad_value", "bots", f"0 <= pause_min_ms <= pause_max_ms <= {MAX_BOT_PAUSE_MS}")
    return cfg


def _validate_hardware(cfg: TableConfig) -> None:
    """Reader gains, SPI bus settings, supplies and terminal parts within what the parts can be."""
    for i, r in enumerate(cfg.readers):
        if r.gain_db not in READER_GAINS_DB:
            raise ConfigError("config_bad_value", f"readers[{i}].gain_db",
                              f"the receiver gain is one of {', '.join(map(str, READER_GAINS_DB))} dB")
    buses = [s.bus for s in cfg.spi]
    if len(set(buses)) != len(buses):
        raise ConfigError("config_duplicate", "spi", "two [[spi]] entries for one bus")
    for i, s in enumerate(cfg.spi):
        if s.bus not in (0, 1):
            raise ConfigError("config_bad_value", f"spi[{i}].bus", "the readers' bus is 0 or 1")
        if not SPI_HZ[0] <= s.spi_hz <= SPI_HZ[1]:
            raise ConfigError("config_bad_value", f"spi[{i}].spi_hz", f"spi_hz is {SPI_HZ[0]}..{SPI_HZ[1]} "
                              f"(the MFRC522's SPI runs up to 10 MHz; {DEFAULT_SPI_HZ} by default)")
        if not 1 <= s.lead_cm <= 1000:
            raise ConfigError("config_bad_value", f"spi[{i}].lead_cm", "lead_cm is the longest lead in cm, 1..1000")
    p = cfg.power
    if p.pi not in PI_MODELS:
        raise ConfigError("config_bad_value", "power.pi", f"expected one of {', '.join(PI_MODELS)}")
    for key in ("reader_rail_ma", "led_supply_ma", "hub_ma", "hub_ports"):
        if not 0 <= getattr(p, key) <= 100_000:
            raise ConfigError("config_bad_value", f"power.{key}", f"{key} is 0..100000")
    t = cfg.terminals
    if not 0 <= t.count <= 64 or not 0 <= t.pixels <= 64 or not 0 <= t.pixel_brightness <= 255:
        raise ConfigError("config_bad_value", "terminals", "count and pixels are 0..64, pixel_brightness 0..255")


def broker_address(url: str, where: str = "venue.broker") -> tuple[str, str, int]:
    """(scheme, host, port) of an `mqtt://host[:port]` or `mqtts://host[:port]` broker URL (ports 1883 and 8883
    by default); raises ConfigError config_bad_value naming `where`."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ConfigError("config_bad_value", where, f"not a valid broker address ({exc})") from None
    if parts.scheme not in VENUE_SCHEMES:
        raise ConfigError("config_bad_value", where, f"expected mqtt://host:1883 or mqtts://host:8883, got {url!r}"[:200])
    if not parts.hostname or parts.username or parts.password or parts.path not in ("", "/") or parts.query \
            or parts.fragment or any(c.isspace() for c in url):
        raise ConfigError("config_bad_value", where, "expected a broker address with a host and nothing else "
                                                     f"(the account and password go in their own keys), got {url!r}"[:200])
    return parts.scheme, parts.hostname, port or (8883 if parts.scheme == "mqtts" else 1883)


def _check_venue(venue: VenueConfig) -> None:
    """`[venue]`: a broker URL, a table id that can be a topic level and an account, a keep-alive in range."""
    scheme, _, _ = broker_address(venue.broker)
    if not TABLE_ID_RE.match(venue.table):
        raise ConfigError("config_bad_value", "venue.table", "a table id is 1 to 32 lower-case letters, digits, "
                                                             f"- or _, starting with a letter or digit, not {venue.table!r}"[:200])
    if venue.username is not None and not TABLE_ID_RE.match(venue.username):
        raise ConfigError("config_bad_value", "venue.username", "an account name is 1 to 32 lower-case letters, "
                                                                "digits, - or _")
    if not venue.password_file.strip():
        raise ConfigError("config_bad_value", "venue.password_file", "the file holding this table's broker password")
    if venue.ca_file is not None and scheme != "mqtts":
        raise ConfigError("config_bad_value", "venue.ca_file", "a CA file is for an mqtts:// broker")
    if not KEEPALIVE_S[0] <= venue.keepalive <= KEEPALIVE_S[1]:
        raise ConfigError("config_bad_value", "venue.keepalive", f"keepalive is {KEEPALIVE_S[0]}..{KEEPALIVE_S[1]} "
                                                                 "seconds (a table pulled from the wall shows offline "
                                                                 "after 1.5 times it)")


def _check_host(host: str) -> None:
    """`[web] host` is an IP address or a host name; a dotted quad that is no address is a typo, not a name."""
    if re.fullmatch(r"[0-9.]+", host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise ConfigError("config_bad_value", "web.host", f"{host!r} is not an IPv4 address") from None
    elif not host or len(host) > 253 or not re.fullmatch(r"[A-Za-z0-9.:_%-]+", host):
        raise ConfigError("config_bad_value", "web.host", f"{host!r} is not an address or host name")


def _check_allowed_host(name: str, where: str) -> None:
    """An allowed host is a bare host name or address: no scheme, port or path."""
    try:
        ipaddress.ip_address(name.strip("[]"))
        return
    except ValueError:
        pass
    if not re.fullmatch(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?",
                        name):
        raise ConfigError("config_bad_value", where, f"expected a host name or address such as 'table.example' "
                                                     f"(no http://, port or path), got {name!r}"[:300])


def _check_public_url(url: str) -> None:
    """`[web] public_url` must be an http(s) address with a host (the seat QR codes carry it)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError as exc:
        raise ConfigError("config_bad_value", "web.public_url", f"not a valid address ({exc})") from None
    if parts.scheme not in ("http", "https"):
        hint = f" (did you mean 'http://{url}'?)" if "://" not in url and url.strip() else ""
        raise ConfigError("config_bad_value", "web.public_url",
                          f"expected an http:// or https:// address such as 'http://table.local:8000', got {url!r}{hint}")
    if not parts.hostname or any(c.isspace() for c in url) or parts.query or parts.fragment:
        raise ConfigError("config_bad_value", "web.public_url",
                          f"expected an address with a host name and no spaces, query or fragment, such as "
                          f"'http://table.local:8000', got {url!r}")


EXAMPLE_PINS = frozenset({"246813", "123456", "654321", "000000", "111111", "121212", "112233",
                          "147258", "159753", "123123", "789456", "102030"})
"""PINs printed in example configs, docs and tests of this project (and everywhere else): never a real one."""


def pin_weakness(pin: str) -> str | None:
    """Why a host PIN is easy to guess (a known example, one digit, a run, a repeated block, two digits), or None."""
    if pin in EXAMPLE_PINS:
        return "is an example PIN printed in documentation and configs"
    if len(set(pin)) <= 2:
        return "uses at most two different digits"
    steps = {(int(b) - int(a)) % 10 for a, b in zip(pin, pin[1:])}
    if steps in ({1}, {9}):
        return "is a run of consecutive digits"
    for size in (2, 3, 4):
        if len(pin) % size == 0 and pin == pin[:size] * (len(pin) // size):
            return "repeats one short block of digits"
    if len(pin) % 2 == 0 and all(pin[i] == pin[i + 1] for i in range(0, len(pin), 2)):
        return "is digits in pairs"
    return None


def config_warnings(cfg: TableConfig) -> list[str]:
    """What is allowed but unwise in a config, as `CODE: where: message` lines (check-config and run print them)."""
    out = []
    if cfg.web.host_pin is not None:
        why = pin_weakness(cfg.web.host_pin)
        if why:
            out.append(f"weak_pin: web.host_pin: the host PIN {why}, so anyone can guess it; remove the line (a "
                       f"random PIN each start, `companion host-link` logs the host in) or choose digits of your own")
    return out


def parse_config(data: Mapping[str, Any]) -> TableConfig:
    """A validated TableConfig from parsed TOML; raises ConfigError."""
    return _validate(_build(TableConfig, dict(data), ""))


def load_config(path: str | Path) -> TableConfig:
    """Read and validate a TOML config file; raises ConfigError (never OSError or TOMLDecodeError)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # Notepad's byte-order mark at the start is fine
    except OSError as exc:
        raise ConfigError("config_unreadable", str(path), exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise ConfigError("config_unreadable", str(path), "not UTF-8 text") from None
    return loads_config(text)


def loads_config(text: str) -> TableConfig:
    """Parse TOML text into a validated TableConfig (a byte-order mark may open it, nowhere else)."""
    text = text.removeprefix(BOM)
    if BOM in text:
        line = text.count("\n", 0, text.index(BOM)) + 1
        raise ConfigError("config_syntax", "", f"line {line}: a byte-order mark (U+FEFF) inside the file; save it as "
                                               "UTF-8 text (without BOM) in one piece")
    if _nesting(text) > MAX_NESTING:
        raise ConfigError("config_syntax", "", f"nested more than {MAX_NESTING} levels deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config_syntax", "", str(exc)) from None
    except RecursionError:
        raise ConfigError("config_syntax", "", "nested too deeply") from None
    return parse_config(data)


def _nesting(text: str) -> int:
    """How deep brackets and braces nest outside strings and comments (an upper bound: enough to refuse early)."""
    depth = deepest = 0
    quote = ""
    comment = False
    for ch in text:
        if comment:
            comment = ch != "\n"
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


def demo_config() -> TableConfig:
    """The embedded default: mock hardware, 10 seats with readers, terminals and LEDs, plus shared zones."""
    palette = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231",
               "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#fabebe"]
    seats = tuple(SeatConfig("", palette[i], f"T{i}") for i in range(10))  # unnamed: "Seat N" in each language
    readers = tuple(ReaderConfig(f"r{i}", f"seat:{i}", 1, 0, cs=None, rst=None) for i in range(10)) + (
        ReaderConfig("board", "board"), ReaderConfig("center", "center"))
    led_zones = [LedZone(f"seat:{i}", i * 6, 6) for i in range(10)]
    led_zones += [LedZone("board", 60, 4), LedZone("track:liberal", 64, 5),
                  LedZone("track:fascist", 69, 6), LedZone("track:election", 75, 3), LedZone("center", 78, 2)]
    buttons = tuple(ButtonConfig(pin=4 + 2 * i, seat=i, key="ja") for i in range(10)) + tuple(
        ButtonConfig(pin=5 + 2 * i, seat=i, key="nein") for i in range(10))
    return _validate(TableConfig(
        name="demo table", backend="mock", game=GameConfig("secret_hitler", 7, "digital"),
        leds=LedConfig(pixels=80, zones=tuple(led_zones)), seats=seats, readers=readers, buttons=buttons))


def with_overrides(cfg: TableConfig, host: str | None = None, port: int | None = None,
                   data_dir: str | None = None) -> TableConfig:
    """The config with command-line flags applied."""
    web = replace(cfg.web, host=host or cfg.web.host, port=port if port is not None else cfg.web.port)
    return _validate(replace(cfg, web=web, data_dir=data_dir if data_dir is not None else cfg.data_dir))


def describe(cfg: TableConfig) -> str:
    """A readable summary of what the table is (for `companion check-config`)."""
    lines = [f"table {cfg.name!r}: backend {cfg.backend}, {len(cfg.seats)} seats, {len(cfg.readers)} readers, "
             f"{cfg.leds.pixels} LEDs, {len(cfg.buttons)} buttons",
             f"game: {cfg.game.name}, {cfg.game.seats} seats, {cfg.game.components} components",
             f"web: http://{cfg.web.host}:{cfg.web.port}/ ({cfg.web.threads} threads + {cfg.web.streams} for "
             f"live-update streams, host PIN "
             f"{'set' if cfg.web.host_pin else 'random at start'}; seat QR codes: "
             f"{cfg.web.public_url or 'the address the host uses, or the LAN address'}; answers to this machine's "
             f"addresses and names{''.join(', ' + h for h in cfg.web.allowed_hosts)})",
             f"data: {cfg.data_dir or 'user data directory'}",
             f"terminals: ports {', '.join(cfg.terminals.ports) or '-'}; discovery by USB id "
             f"{'default' if cfg.terminals.discover is None else 'on' if cfg.terminals.discover else 'off'}",
             f"venue: {'none' if cfg.venue is None else f'table {cfg.venue.table!r} reports to {cfg.venue.broker} as {cfg.venue.account!r}'}"]
    for i, s in enumerate(cfg.seats):
        lines.append(f"  seat {i}: {s.name or '(no name)'} {s.colour} terminal={s.terminal or '-'}")
    for r in cfg.readers:
        lines.append(f"  reader {r.name}: zone {r.zone} (bus {r.bus}, device {r.device}, cs {r.cs}, rst {r.rst}, "
                     f"gain {r.gain_db} dB{', antenna switching' if r.antenna_switching else ''})")
    for bus in sorted({r.bus for r in cfg.readers}):
        s = cfg.spi_bus(bus)
        lines.append(f"  SPI{bus}: {s.spi_hz} Hz, leads up to {s.lead_cm} cm")
    for z in cfg.leds.zones:
        lines.append(f"  leds {z.zone}: pixels {z.start}..{z.start + z.count - 1}")
    for b in cfg.buttons:
        lines.append(f"  button GPIO{b.pin}: seat {b.seat} key {b.key}")
    return "\n".join(lines)

