"""Random bodies, headers and path values into every route of the app (enumerated from `app.url_map`, so new
routes are covered automatically), anonymous and as the logged-in host: never a 5xx, always JSON or the page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import app, client, login, runtime  # noqa: F401  (pytest fixtures)

TEXT = st.text(max_size=40)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                    max_leaves=15)
EXAMPLES_PER_ROUTE = 8
"""Random requests per route and login state: every route is fuzzed, none left to chance."""
FIELDS = ["pin", "token", "action", "game", "seats", "options", "components", "uid", "kind", "value", "label",
          "reader", "seat", "key", "terminal", "ballot", "deck", "on", "type", "vote", "target"]
BODIES = (st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5).map(lambda d: json.dumps(d).encode())
          | JSON.map(lambda v: json.dumps(v).encode()) | st.binary(max_size=200)
          | st.just(b"[" * 5000) | st.just(b'{"action": {"type": "vote", "seat": 0, "vote": "ja"}}'))
HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"), max_size=40)
HEADERS = st.fixed_dictionaries({}, optional={
    "Content-Type": st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1",
                                     "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", ""]),
    "X-CSRF-Token": HEADER_TEXT, "Last-Event-ID": HEADER_TEXT, "Accept-Language": HEADER_TEXT,
    "Cookie": st.sampled_from(["session=garbage", "session=", "x=y"]),
})


def _routes(app: Flask) -> list[tuple[str, str, list[str]]]:
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule, sorted(rule.arguments)))
    return out


def _fill(rule: str, args: list[str], values: list[str]) -> str:
    path = rule
    for name, value in zip(args, values):
        path = path.replace(f"<{name}>", value).replace(f"<path:{name}>", value)
        for conv in ("string", "int", "path", "uuid"):
            path = path.replace(f"<{conv}:{name}>", value)
    return path


@pytest.mark.parametrize("as_host", [False, True])
def test_every_route_answers_random_input_without_a_5xx(app: Flask, as_host: bool) -> None:
    routes = _routes(app)
    assert any(r[1] == "/api/action" for r in routes) and len(routes) >= 10
    client = app.test_client()
    csrf = login(client) if as_host else {}
    hits: dict[tuple[str, str], int] = {}

    def fuzz(method: str, rule: str, args: list[str]) -> Any:
        """A hypothesis test sending random input to one route (every route gets its own examples)."""

        @settings(max_examples=EXAMPLES_PER_ROUTE, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                         HealthCheck.data_too_large])
        @given(data=st.data())
        def check(data: st.DataObject) -> None:
            values = [data.draw(st.sampled_from(["0", "1", "-1", "99999999999999999999", "x", "%00", "..", "é"]) |
                                st.text(alphabet=st.characters(min_codepoint=48, max_codepoint=122), min_size=1,
                                        max_size=20))
                      for _ in args]
            headers: dict[str, Any] = {**csrf, **data.draw(HEADERS)}
            body = data.draw(BODIES) if method != "GET" else None
            path = _fill(rule, args, values)
            query = data.draw(st.sampled_from(["", "?last_event_id=zz-1", "?lang=ko", "?x=%ff"]))
            resp = client.open(path + query, method=method, data=body, headers=headers)
            try:
                assert resp.status_code < 500, (method, path, headers, body, resp.get_data()[:300])
                if resp.mimetype == "application/json":
                    payload = resp.get_json()
                    if resp.status_code >= 400:
                        assert isinstance(payload.get("code"), str) and payload["code"], payload
            finally:
                resp.close()
            hits[(method, rule)] = hits.get((method, rule), 0) + 1

        return check

    for method, rule, args in routes:
        fuzz(method, rule, args)()
    missed = {(m, r) for m, r, _ in routes} - set(hits)
    assert not missed, f"routes never exercised: {missed}"
