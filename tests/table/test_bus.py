"""The event bus: one encoding per event shared by every client, batching, resume, and cutting off a laggard."""

from __future__ import annotations

import threading

from companion.table.bus import BUFFER, EventBus, sse_frame


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
