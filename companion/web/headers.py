"""The security headers every page of ours carries (the table's and the venue dashboard's)."""

from __future__ import annotations

from flask import Response

CSP = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
"""No inline script or style, nothing from another origin (the Pi has no internet at a game night)."""


def secure(response: Response) -> Response:
    """Add the security headers a response does not set itself."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
