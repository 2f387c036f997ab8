"""The event bus: one encoding per event shared by every client, batching, resume, and cutting off a laggard."""

from __future__ import annotations

import threading

from companion.table.bus import BUFFER, EventBus, chunk, sse_frame


def _bus() -> EventBus:
    return EventBus(lambda: {"status": "idle"})


def test_every_client_gets_the_same_encoded_bytes_and_batches_what_is_pending() -> None:
    bus = _bus()
    subs = [bus.subscribe(None) for _ in range(3)]
    snapshots = [s.frames(0.1) for s in subs]
    assert snapshots[0] is snapshots[1] is snapshots[2], "one snapshot encoding per event number"
    assert snapshots[0] is not None and b"event: state" in snapshots[0]
    first = bus.publish("state", {"n": 1})
    second = bus.publish("health", {"n": 2})
    chunks = [s.frames(0.1) for s in subs]
    assert chunks[0] == sse_frame(first) + sse_frame(second) and len(set(chunks)) == 1
    assert all(s.frames(0.01) is None for s in subs)


def test_get_hands_out_one_event_at_a_time_and_a_waiting_client_wakes() -> None:
    bus = _bus()
    sub = bus.subscribe(None)
    assert sub.get(0.1) is not None  # the snapshot
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.append(sub.get(5)))
    reader.start()
    event = bus.publish("state", {"n": 1})
    reader.join(5)
    assert got == [event]


def test_resume_after_last_event_id_and_a_fresh_snapshot_when_too_old() -> None:
    bus = _bus()
    seen = bus.publish("state", {"n": 1})
    later = [bus.publish("state", {"n": i}) for i in range(2, 5)]
    sub = bus.subscribe(seen.id)
    assert sub.frames(0.1) == b"".join(sse_frame(e) for e in later)
    for i in range(BUFFER + 5):
        bus.publish("state", {"n": i})
    stale = bus.subscribe(seen.id)
    snapshot = stale.get(0.1)
    assert snapshot is not None and snapshot.type == "state" and dict(snapshot.data) == {"status": "idle"}


def test_a_client_a_whole_ring_behind_is_cut_off_and_closing_wakes_a_waiter() -> None:
    bus = _bus()
    slow, fast = bus.subscribe(None), bus.subscribe(None)
    slow.frames(0.1)
    fast.frames(0.1)
    for i in range(BUFFER + 1):
        bus.publish("state", {"n": i})
        fast.frames(0.1)
    assert slow.frames(0.1) is None and slow.closed and bus.clients() == 1
    woke = threading.Event()
    waiter = threading.Thread(target=lambda: (fast.frames(10), woke.set()))
    waiter.start()
    fast.close()
    assert woke.wait(2) and bus.clients() == 0


def test_a_caught_up_client_is_pushed_every_event_as_one_chunk_and_a_lagging_one_only_after_catching_up() -> None:
    bus = _bus()
    pushed, behind = bus.subscribe(None), bus.subscribe(None)
    got: list[bytes] = []
    assert not pushed.push(got.append), "the snapshot is still to be taken with frames()"
    assert pushed.frames(0.1) is not None
    assert pushed.push(lambda wire: got.append(wire) is None)
    events = [bus.publish("state", {"n": i}) for i in range(3)]
    assert got == [chunk(sse_frame(e)) for e in events]
    assert chunk(b"abc") == b"3\r\nabc\r\n"
    assert pushed.frames(0.01) is None, "a pushed client's cursor moves with the pushes"
    assert not behind.push(got.append)  # snapshot and three events not taken yet
    assert behind.frames(0.1) is not None and not behind.push(lambda wire: True)  # the snapshot only
    assert behind.frames(0.1) == b"".join(sse_frame(e) for e in events)
    assert behind.push(lambda wire: True)
    bus.publish("state", {"n": 3})
    assert len(got) == 4 and bus.clients() == 2


def test_a_pushed_client_that_cannot_take_an_event_is_cut_off_and_its_stream_wakes() -> None:
    bus = _bus()
    refusing, broken, fine = (bus.subscribe(None) for _ in range(3))
    for sub in (refusing, broken, fine):
        sub.frames(0.1)

    def raises(wire: bytes) -> bool:
        raise OSError("connection reset")

    taken: list[bytes] = []
    assert refusing.push(lambda wire: False) and broken.push(raises)
    assert fine.push(lambda wire: taken.append(wire) is None)
    woke = threading.Event()
    waiter = threading.Thread(target=lambda: refusing.wait_closed(10) and woke.set())
    waiter.start()
    bus.publish("state", {"n": 1})
    assert woke.wait(2) and refusing.closed and broken.closed and not fine.closed
    assert bus.clients() == 1 and len(taken) == 1
    assert not fine.wait_closed(0.01)
    fine.close()
    assert fine.wait_closed(0.01) and bus.clients() == 0
    bus.publish("state", {"n": 2})
    assert len(taken) == 1, "a closed client is never written to again"


def test_the_ring_keeps_events_as_bytes_not_as_trees_the_collector_scans() -> None:
    import gc

    bus = _bus()
    gc.collect()
    before = len(gc.get_objects())
    for n in range(BUFFER):
        bus.publish("state", {"n": n, "view": {"seats": [{"i": i, "tags": [i, i]} for i in range(10)]}})
    gc.collect()
    # a full ring of these events as dicts would be 11,000+ tracked objects; as bytes, one small entry each
    assert len(gc.get_objects()) - before < 2 * BUFFER
    recent = bus.recent()
    assert len(recent) == BUFFER and recent[-1].data == {
        "n": BUFFER - 1, "view": {"seats": [{"i": i, "tags": [i, i]} for i in range(10)]}}
    assert recent[-1].id == f"{bus.boot}-{BUFFER}" and recent[-1].type == "state"


def test_freeze_heap_leaves_the_booted_table_out_of_later_collections(tmp_path) -> None:
    import subprocess
    import sys
    script = f"""
import gc, random
from dataclasses import replace
from companion.config import demo_config
from companion.table.runtime import Runtime
rt = Runtime(replace(demo_config(), data_dir={str(tmp_path)!r}), rng=random.Random(1)).start()
rt.make_server("127.0.0.1", 0)
rt.freeze_heap()
print(gc.get_freeze_count(), len(gc.get_objects()))
rt.stop()
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    frozen, scanned = map(int, out.stdout.split())
    assert frozen > 10_000 and scanned < frozen / 10, (frozen, scanned)


def test_last_number_is_the_latest_event_number_without_decoding() -> None:
    bus = _bus()
    assert bus.last_number() == 0
    bus.publish("state", {"n": 1})
    event = bus.publish("health", {"n": 2})
    assert bus.last_number() == 2 and event.id == f"{bus.boot}-2" == bus.recent()[-1].id


def test_an_event_encoded_before_its_publish_goes_out_as_the_same_bytes() -> None:
    from companion.table.wire_json import dumps

    plain, early = _bus(), _bus()
    plain.boot = early.boot
    subs = [plain.subscribe(None), early.subscribe(None)]
    for s in subs:
        s.frames(0.1)
    data = {"game": {"seats": [1, 2, 3]}, "note": "한글"}
    plain.publish("state", data)
    early.publish("state", data, dumps(data))
    assert subs[0].frames(0.1) == subs[1].frames(0.1)
    early.publish("state", data, b'{"given":1}')  # the bytes given are the ones sent: nothing encodes again
    assert b'data: {"given":1}' in (subs[1].frames(0.1) or b"")


def test_the_host_reads_more_than_the_public_and_the_public_cannot_count_it() -> None:
    """An event's host variant goes to host streams only, a host-only event to none but them; public ids stay
    dense so a public client cannot tell that the host heard something between two of its events."""
    bus = _bus()
    public, host = bus.subscribe(None), bus.subscribe(None, host=True)
    public.frames(0.1)
    host.frames(0.1)
    first = bus.publish("rejected", {"zone": "seat:1"}, host={"zone": "seat:1", "code": "policy_not_in_hand"})
    told = bus.publish_host("card_enrolled", {"uid": "0A0B0C0D"})
    second = bus.publish("state", {"n": 2})
    seen = public.frames(0.1)
    assert seen == sse_frame(first) + sse_frame(second)
    assert first.id == f"{bus.boot}-1" and second.id == f"{bus.boot}-2" and told.id == f"{bus.boot}-1.1"
    assert b"policy_not_in_hand" not in seen and b"0A0B0C0D" not in seen
    heard = host.frames(0.1)
    assert heard is not None and b"policy_not_in_hand" in heard and b"0A0B0C0D" in heard and b"id: %s-1\n" % (
        bus.boot.encode()) in heard
    assert [e.type for e in bus.recent()] == ["rejected", "state"]
    assert [e.type for e in bus.recent(host=True)] == ["rejected", "card_enrolled", "state"]
    assert bus.last_number() == 2


def test_host_frames_are_pushed_to_host_streams_alone_and_resume_where_they_stopped() -> None:
    bus = _bus()
    public, host = bus.subscribe(None), bus.subscribe(None, host=True)
    public.frames(0.1)
    host.frames(0.1)
    got: dict[str, list[bytes]] = {"public": [], "host": []}
    assert public.push(lambda wire: got["public"].append(wire) is None)
    assert host.push(lambda wire: got["host"].append(wire) is None)
    bus.publish("rejected", {"zone": "board"}, host={"zone": "board", "code": "impossible_draw"})
    told = bus.publish_host("guide", {"running": True})
    assert len(got["public"]) == 1 and b"impossible_draw" not in got["public"][0]
    assert len(got["host"]) == 2 and b"impossible_draw" in got["host"][0] and b"guide" in got["host"][1]
    later = bus.publish("state", {"n": 3})
    resumed = bus.subscribe(told.id, host=True)
    assert resumed.frames(0.1) == sse_frame(later)
    assert bus.subscribe(told.id).frames(0.1) is not None  # a host id means nothing to a public client:
    assert b"event: state" in bus.subscribe(told.id).frames(0.1)  # a fresh snapshot
    assert bus.subscribe(f"{bus.boot}-{'9' * 5000}").frames(0.1) is not None  # no id of ours: a snapshot
