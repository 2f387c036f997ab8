"""The venue's refusals: a stable snake_case code and English words, logged (and shown to staff) where they
happen; nothing is changed by a refused message, account or address."""

from __future__ import annotations

from companion.errors import CompanionError


class VenueError(CompanionError, ValueError):
    """A refused venue message, account, address or request (`code` says which kind)."""

    code = "venue_error"


class BrokerRefused(CompanionError, ConnectionError):
    """The broker could not be reached or refused this account (`broker_unreachable`, `broker_auth_refused`,
    `broker_tls_failed`, `broker_refused`)."""

    code = "broker_refused"
