"""Which phones hold a seat: counted by the id each seat page names itself with, for HOLD_S after its last
request; an old game's tokens are forgotten; memory stays bounded; the seat API tells each phone of the others."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.table.runtime import Runtime
from companion.web.seat_holders import MAX_PHONES, SeatHolders
from tests.web.conftest import login


def test_phones_are_counted_per_seat_while_they_ask() -> None:
    now = [0.0]
    holders = SeatHolders(hold_s=45.0, clock=lambda: now[0])
    assert holders.seen("seat-a", "phone-one-1") == 0
    assert holders.seen("seat-b", "phone-two-2") == 0  # another seat: nobody else holds seat a
    assert holders.seen("seat-a", "phone-two-2") == 1 and holders.seen("seat-a", "phone-one-1") == 1
    assert holders.counts(["seat-a", "seat-b", "seat-c"]) == [2, 1, 0]
    now[0] = 40.0
    assert holders.seen("seat-a", "phone-one-1") == 1
    now[0] = 50.0  # the second phone stopped asking 50 s ago: it no longer holds the seat
    assert holders.seen("seat-a", "phone-one-1") == 0
    assert holders.seen("seat-a", "x") == 1 and holders.counts(["seat-a"]) == [1], "a bad id is nobody's"
    holders.seen("seat-b", "phone-two-2")
    holders.forget_except(["seat-b"])
    assert holders.counts(["seat-a", "seat-b"]) == [0, 1]
    for n in range(3 * MAX_PHONES):
        holders.seen("seat-b", f"phone-{n:06d}")
    assert holders.counts(["seat-b"]) == [MAX_PHONES]


def test_the_seat_api_tells_a_phone_of_the_others_and_a_stale_choice_gets_the_fresh_prompt(
        client: FlaskClient, runtime: Runtime) -> None:
    token0, token1 = runtime.loop.session.tokens[:2]
    first = client.get(f"/api/seat/{token0}", headers={"X-Phone-Id": "phone-aaaa"}).get_json()
    assert first["others"] == 0 and first["outcome"] is None
    assert client.get(f"/api/seat/{token0}", headers={"X-Phone-Id": "phone-bbbb"}).get_json()["others"] == 1
    assert client.get(f"/api/seat/{token1}", headers={"X-Phone-Id": "phone-aaaa"}).get_json()["others"] == 0
    csrf = login(client)
    seats = {e["seat"]: e["phones"] for e in client.get("/api/host/state").get_json()["game"]["seat_tokens"]}
    assert seats[0] == 2 and seats[1] == 1 and seats[2] == 0 and csrf
    shown = first["version"]
    vote = {"token": token0, "action": {"type": "vote", "vote": "ja"}, "version": shown}
    assert client.post("/api/action", json=vote).status_code == 200
    again = client.post("/api/action", json={**vote, "action": {"type": "vote", "vote": "nein"}})
    assert (again.status_code, again.get_json()["code"]) == (409, "stale_prompt")
    bad = client.post("/api/action", json={**vote, "version": 7})
    assert (bad.status_code, bad.get_json()["code"]) == (400, "malformed") or bad.get_json()["code"] == "malformed"
