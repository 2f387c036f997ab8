"""Every reason a Secret Hitler bot gives for a decision, with the names of its params (seats are seat numbers,
`percent` a whole percentage); the page words them from `bots.secret_hitler.reasons` in web/i18n."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # votes
    "ja_own_government": (),
    "ja_trusted": ("president", "chancellor", "percent"),
    "ja_tracker": ("election_tracker",),
    "ja_teammate": ("seat",),
    "ja_hitler_chancellor": ("seat",),
    "ja_cover": (),
    "ja_deck_is_fascist": (),
    "nein_fascist_record": ("seat",),
    "nein_suspect": ("seat", "percent"),
    "nein_proven_fascist": ("seat",),
    "nein_hitler_risk": ("seat", "percent"),
    "nein_liberal_government": (),
    # nominations and powers
    "nominate_trusted": ("target", "percent"),
    "nominate_proven": ("target",),
    "nominate_teammate": ("target",),
    "nominate_hitler": ("target",),
    "nominate_cover": ("target",),
    "investigate_uncertain": ("target", "percent"),
    "investigate_cover": ("target",),
    "special_election_trusted": ("target", "percent"),
    "special_election_teammate": ("target",),
    "execute_suspect": ("target", "percent"),
    "execute_proven": ("target",),
    "execute_liberal": ("target",),
    "peek_done": (),
    # legislation
    "discard_fascist": (),
    "discard_liberal": (),
    "discard_cover": (),
    "discard_forced": ("policy",),
    "enact_liberal": (),
    "enact_fascist": (),
    "enact_cover": (),
    "enact_forced": ("policy",),
    "veto_two_fascist": (),
    "veto_stall": (),
    "veto_agree_passed_fascist": (),
    "veto_agree_teammate": (),
    "veto_refuse_passed_liberal": (),
    "veto_refuse_force": (),
})
"""Reason code -> the names of its params, in order (read-only)."""
