"""What fits a seat terminal: a table prompt of any size laid out as screens of at most the terminal's options.

A prompt that fits one screen goes as it is. A longer one is paged ("more" wraps to the first page), or put
on two levels (the kind of action, then its target) when its options fall into several kinds; a prompt that
would need more than MAX_PAGES pages on some level cannot be chosen on the terminal: it shows "use your phone"
while the seat page holds the prompt. Navigation options carry values starting with NAV; they never reach the
table. Each screen sent gets its own wire ballot (`<table ballot>:<n>`), so a terminal that marks a ballot as
chosen is never stuck on a page it saw before. Pure: values in, values out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.hal import terminal_protocol as proto

NAV = "~"
MORE = "~more"
UP = "~up"
PHONE = "~phone"
GROUP = "~g"
MAX_PAGES = 6
"""More pages than this on one level reads worse than the phone: such a prompt goes to the phone."""
LABEL_STEPS = (64, 32, 16, 8)
"""Label lengths tried, longest first, until a screen's line fits MAX_LINE."""


@dataclass(frozen=True)
class Capability:
    """What a terminal said it can show: its protocol, options per screen, a display, what failed to start."""

    version: int = 1
    screen: int = proto.MAX_OPTIONS
    display: bool = False
    faults: str = ""

    @classmethod
    def of(cls, hello: proto.Hello) -> "Capability":
        """A hello's capability; a v1 hello (no new fields) is a v1 terminal with MAX_OPTIONS per screen."""
        screen = hello.screen if hello.screen is not None else proto.MAX_OPTIONS
        return cls(hello.proto or 1, max(1, min(proto.MAX_OPTIONS, screen)), bool(hello.display), hello.faults or "")


@dataclass(frozen=True)
class Menu:
    """One level: a title and its entries (wire value, label); a group entry's value is GROUP + its index."""

    title: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Layout:
    """A prompt laid out: the first level and the second-level menus (empty when flat)."""

    root: Menu
    groups: tuple[Menu, ...] = ()


@dataclass(frozen=True)
class Place:
    """Where a terminal is in a layout: a menu (-1 the first level) and a page, and the root page to go back to."""

    menu: int = -1
    page: int = 0
    root_page: int = 0


def pages_needed(count: int, slots: int) -> int:
    """Pages for `count` entries on screens of `slots` (one slot per page goes to "more" once paged)."""
    if count <= slots:
        return 1
    if slots < 2:
        return 10 ** 6
    return -(-count // (slots - 1))


def layout(options: Sequence[Mapping[str, Any]], cap: Capability) -> Layout | None:
    """The screens for a table prompt's options on this terminal, or None when it cannot fit (the phone).

    Tried in order: one screen; two levels by kind of action; pages; two levels by the first word of the
    target (a patrol of locations "1 2", "1 3", ... as "patrol 1" then "2", "3"); else the phone."""
    leaves = tuple((str(o["value"]), str(o.get("short") or o.get("label", o["value"]))) for o in options)
    if len(leaves) <= cap.screen:
        return Layout(Menu("choose", leaves))
    by_kind = [(str(o.get("group") or ""), str(o.get("item") or leaves[i][1])) for i, o in enumerate(options)]
    plan = _two_levels(leaves, by_kind, cap)
    if plan is not None:
        return plan
    if pages_needed(len(leaves), cap.screen) <= MAX_PAGES:
        return Layout(Menu("choose", leaves))
    by_word = []
    for kind, item in by_kind:
        first, _, rest = item.partition(" ")
        by_word.append((f"{kind} {first}".strip(), rest or first))
    return _two_levels(leaves, by_word, cap)


def _two_levels(leaves: tuple[tuple[str, str], ...], keyed: Sequence[tuple[str, str]],
                cap: Capability) -> Layout | None:
    """A first level of keys (a key with one option is that option) and a menu per key, if every level fits."""
    members: dict[str, list[int]] = {}
    for i, (key, _) in enumerate(keyed):
        members.setdefault(key, []).append(i)
    if len(members) < 2 or cap.screen < 2:
        return None
    root: list[tuple[str, str]] = []
    groups: list[Menu] = []
    for key, indices in members.items():
        if len(indices) == 1:
            root.append(leaves[indices[0]])
            continue
        root.append((f"{GROUP}{len(groups)}", f"{key} ({len(indices)})"[:64]))
        groups.append(Menu(key[:40], tuple((leaves[i][0], keyed[i][1]) for i in indices)))
    if pages_needed(len(root), cap.screen) > MAX_PAGES or any(
            pages_needed(len(g.entries), cap.screen - 1) > MAX_PAGES for g in groups):
        return None
    return Layout(Menu("choose", tuple(root)), tuple(groups))


def _page(menu: Menu, page: int, screen: int, sub: bool) -> tuple[list[tuple[str, str]], int]:
    """The entries on one page of a menu (navigation included) and how many pages it has."""
    slots = screen - (1 if sub else 0)
    tail = [(UP, "< back")] if sub else []
    if len(menu.entries) <= slots:
        return list(menu.entries) + tail, 1
    per = slots - 1
    count = -(-len(menu.entries) // per)
    page %= count
    return list(menu.entries[page * per:(page + 1) * per]) + [(MORE, "more >")] + tail, count


def screen_at(plan: Layout, place: Place, cap: Capability) -> tuple[str, list[tuple[str, str]]]:
    """The title and entries a terminal shows at `place`."""
    sub = place.menu >= 0
    menu = plan.groups[place.menu] if sub else plan.root
    entries, count = _page(menu, place.page, cap.screen, sub)
    title = menu.title if count == 1 else f"{menu.title} {place.page % count + 1}/{count}"
    return title[:64], entries


def navigate(plan: Layout, place: Place, value: str, cap: Capability) -> Place | None:
    """Where a navigation choice leads, or None when `value` is not one."""
    sub = place.menu >= 0
    menu = plan.groups[place.menu] if sub else plan.root
    _, count = _page(menu, place.page, cap.screen, sub)
    if value == MORE:
        return Place(place.menu, (place.page + 1) % count, place.root_page)
    if value == UP and sub:
        return Place(-1, place.root_page, 0)
    if value.startswith(GROUP) and not sub and value[len(GROUP):].isdigit():
        index = int(value[len(GROUP):])
        if 0 <= index < len(plan.groups):
            return Place(index, 0, place.page)
    return None


def prompt_message(ballot: str, title: str, entries: list[tuple[str, str]], cap: Capability) -> proto.Prompt:
    """One screen as a wire prompt whose line fits MAX_LINE (labels shortened as far as needed)."""
    for limit in LABEL_STEPS:
        message = proto.Prompt(ballot, tuple(proto.Option(v, _clean(lab)[:limit]) for v, lab in entries),
                               title if cap.version >= 2 else None)
        try:
            proto.encode(message)
        except proto.ProtocolError as exc:
            if exc.code != "too_long":
                raise
            continue
        return message
    raise proto.ProtocolError("too_long", f"{len(entries)} options do not fit one line")


def phone_message(ballot: str, cap: Capability) -> proto.Message:
    """The "use your phone" screen: a `phone` message, or for a v1 terminal a one-option prompt saying so."""
    if cap.version >= 2:
        return proto.Phone(ballot)
    return proto.Prompt(ballot, (proto.Option(PHONE, "use your phone"),))


def _clean(label: str) -> str:
    """A label the wire accepts: control characters become spaces."""
    return "".join(" " if ord(c) < 0x20 or c == "\x7f" else c for c in label)
