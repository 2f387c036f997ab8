"""The attacks of issue #30 ("nobody gets in where they don't belong"), scripted against a real `companion run`.

Each function runs one attack against a table listening on 127.0.0.1:`port` and returns what it measured; the
tests in tests/server/test_guard.py assert what the table must do, and `python -m tests.server.attacks [--root
CHECKOUT]` runs them all against a table started from any checkout and prints the figures as JSON (how the
"before" figures in docs/SECURITY.md were taken on the commit before the guard).

Attackers take source addresses from 127.0.0.0/8 other than 127.0.0.1 (the loopback interface answers to all of
them): each stands for another device on the LAN. 127.0.0.1 itself is the Pi's own (its kiosk, `companion
bench`), which the per-address caps leave alone.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

PIN = "135790"
EVIL = "evil.example"


def attacker(i: int, block: int = 2) -> str:
    """The i-th attacker's source address (127.`block`.x.y, never .0 or .255)."""
    return f"127.{block}.{1 + i // 250}.{1 + i % 250}"


def request(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
            source: str = "127.0.0.1", timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request from `source`: (status, lower-cased headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def code_of(body: bytes) -> str | None:
    """The refusal code of a JSON error body (None when there is none)."""
    try:
        found = json.loads(body)
    except ValueError:
        return None
    return found.get("code") if isinstance(found, dict) else None


# --- item 2: a page on the LAN rebinds its name to the table -------------------------------------------------

def rebinding(port: int, pin: str = PIN) -> dict[str, Any]:
    """What a page on evil.example, its name rebound to the table's address, reaches: the login, the host state
    (every seat token), a seat's view and a state-changing POST with a foreign Origin."""
    evil = {"Host": f"{EVIL}:{port}", "Origin": f"http://{EVIL}:{port}"}
    status, headers, body = request(port, "POST", "/api/host/login", {"pin": pin}, evil)
    out: dict[str, Any] = {"login": [status, code_of(body)]}
    cookie = headers.get("set-cookie", "").split(";")[0]
    status, _, body = request(port, "GET", "/api/host/state", headers={**evil, "Cookie": cookie})
    tokens = []
    if status == 200:
        tokens = [t["token"] for t in (json.loads(body).get("game") or {}).get("seat_tokens", [])]
    out["host_state"] = [status, code_of(body), len(tokens)]
    # a real token (taken by the host, at the table's own address), read through the rebound name
    status, headers, body = request(port, "POST", "/api/host/login", {"pin": pin})
    good = {"Cookie": headers.get("set-cookie", "").split(";")[0], "X-CSRF-Token": str(json.loads(body).get("csrf"))}
    state = json.loads(request(port, "GET", "/api/host/state", headers=good)[2])
    token = state["game"]["seat_tokens"][0]["token"]
    status, _, body = request(port, "GET", f"/api/seat/{token}", headers=evil)
    out["seat_view"] = [status, code_of(body)]
    status, _, body = request(port, "GET", f"/seat/{token}", headers=evil)
    out["seat_page"] = [status]
    # a foreign Origin on a POST to the table's own name: a page elsewhere cannot make a browser act here
    status, _, body = request(port, "POST", "/api/host/logout", {}, {"Origin": f"http://{EVIL}", **good})
    out["foreign_origin_post"] = [status, code_of(body)]
    return out


# --- item 3: PIN guessing from many addresses -------------------------------------------------------------------

def pin_flood(port: int, seconds: float = 15.0, addresses: int = 2000, per_address: int = 5,
              pin: str = PIN) -> dict[str, Any]:
    """Wrong PINs from up to `addresses` source addresses, `per_address` from each in turn, for `seconds`: how many
    were checked (answered bad_pin), how many refused unchecked (pin_locked), and whether the right PIN still
    logs in from a fresh address at the end."""
    wrong = f"{(int(pin) + 1) % 10 ** len(pin):0{len(pin)}d}"
    checked = locked = other = sent = used = 0
    started = time.monotonic()
    while time.monotonic() - started < seconds and used < addresses:
        source = attacker(used)
        used += 1
        for _ in range(per_address):
            code = code_of(request(port, "POST", "/api/host/login", {"pin": wrong}, source=source)[2])
            sent += 1
            if code == "bad_pin":
                checked += 1
            elif code in ("pin_locked", "pin_table_locked"):
                locked += 1
                break
            else:
                other += 1
    elapsed = time.monotonic() - started
    status = request(port, "POST", "/api/host/login", {"pin": pin}, source=attacker(0, block=9))[0]
    return {"seconds": round(elapsed, 1), "addresses": used, "sent": sent, "checked": checked, "locked": locked,
            "other": other, "checked_per_s": round(checked / elapsed, 1), "right_pin_after": status}


# --- item 4: connections that never finish a request ------------------------------------------------------------

def _open(port: int, source: str) -> socket.socket | None:
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
    except OSError:
        return None
    return sock


def still_open(sock: socket.socket) -> bool:
    """Whether the server still holds a connection open (no FIN or RST has come back)."""
    sock.setblocking(False)
    try:
        data = sock.recv(4096)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
    return bool(data) and not data.startswith(b"HTTP/1.1 503")


def probe(port: int, source: str, tries: int = 10, timeout: float = 3.0) -> dict[str, Any]:
    """GET /api/state `tries` times from `source`: worst time in ms and how many failed (no answer in `timeout`)."""
    worst, failed = 0.0, 0
    for _ in range(tries):
        started = time.monotonic()
        try:
            status = request(port, "GET", "/api/state", source=source, timeout=timeout)[0]
            if status != 200:
                failed += 1
        except OSError:
            failed += 1
            continue
        worst = max(worst, (time.monotonic() - started) * 1000)
    return {"worst_ms": round(worst, 1), "failed": failed, "tries": tries}


def connection_flood(port: int, idle: int = 100, slowloris: int = 110, spread: bool = False,
                     hold_s: float = 5.0) -> dict[str, Any]:
    """`idle` connections that send nothing and `slowloris` ones that send a header line every second (from one
    address, or each from its own with `spread`), held `hold_s`; meanwhile the API is asked from another
    address. Returns how many the server still held at the end, and the API's worst answer time."""
    source = (lambda i: attacker(i)) if spread else (lambda i: attacker(0))
    socks: list[socket.socket] = []
    for i in range(idle):
        sock = _open(port, source(i))
        if sock is not None:
            socks.append(sock)
    slow: list[socket.socket] = []
    for i in range(slowloris):
        sock = _open(port, source(idle + i))
        if sock is not None:
            try:
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                slow.append(sock)
            except OSError:
                sock.close()
    stop = threading.Event()

    def drip() -> None:
        n = 0
        while not stop.wait(1.0):
            n += 1
            for sock in slow:
                try:
                    sock.send(f"X-{n}: {n}\r\n".encode())
                except OSError:
                    pass

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        time.sleep(0.5)
        during = probe(port, attacker(0, block=8), tries=max(3, int(hold_s / 0.5)), timeout=3.0)
        held = sum(still_open(s) for s in socks + slow)
    finally:
        stop.set()
        dripper.join()
        for sock in socks + slow:
            sock.close()
    return {"attacking": idle + slowloris, "connected": len(socks) + len(slow), "held_at_end": held,
            "api_during": during, "spread": spread}


def slowloris_cut(port: int, sockets: int = 20, wait_s: float = 25.0) -> dict[str, Any]:
    """Slowloris sockets (each from its own address, a header line a second) and idle ones: how long until the
    server closed each (None: still open after `wait_s`)."""
    slow = [_open(port, attacker(500 + i)) for i in range(sockets)]
    idle = [_open(port, attacker(600 + i)) for i in range(sockets)]
    for sock in slow:
        if sock is not None:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    closed: dict[int, float] = {}
    while time.monotonic() - started < wait_s and len(closed) < 2 * sockets:
        for i, sock in enumerate(slow + idle):
            if sock is None or i in closed:
                continue
            if i < sockets:
                try:
                    sock.send(b"X-a: b\r\n")
                except OSError:
                    closed[i] = time.monotonic() - started
                    continue
            if not still_open(sock):
                closed[i] = time.monotonic() - started
        time.sleep(1.0)
    for sock in slow + idle:
        if sock is not None:
            sock.close()
    cut_slow = [round(closed[i], 1) for i in range(sockets) if i in closed]
    cut_idle = [round(closed[sockets + i], 1) for i in range(sockets) if sockets + i in closed]
    return {"slowloris_closed": len(cut_slow), "slowloris_after_s": max(cut_slow, default=None),
            "idle_closed": len(cut_idle), "idle_after_s": max(cut_idle, default=None), "of": sockets,
            "waited_s": wait_s}


def stream_hog(port: int, streams: int = 70, source: str | None = None) -> dict[str, Any]:
    """Open `streams` live-update streams from one address: how many were served and how the rest were refused."""
    source = source or attacker(0, block=3)
    held, refused = [], {}
    for _ in range(streams):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
        try:
            conn.request("GET", "/api/events")
            resp = conn.getresponse()
        except OSError:
            refused["no_answer"] = refused.get("no_answer", 0) + 1
            conn.close()
            continue
        if resp.status == 200:
            held.append((conn, resp))
        else:
            code = str(code_of(resp.read()))
            refused[code] = refused.get(code, 0) + 1
            conn.close()
    other = probe(port, attacker(1, block=3), tries=3)
    for conn, resp in held:
        resp.close()
        conn.close()
    return {"served": len(held), "refused": refused, "api_from_another_address": other}


# --- item 8: bad input ---------------------------------------------------------------------------------------------

BAD_INPUTS: list[tuple[str, str, Any, dict[str, str]]] = [
    ("surrogate_pin", "/api/host/login", b'{"pin": "\\ud800"}', {}),
    ("surrogate_token", "/api/action", b'{"token": "\\udfff", "action": {"type": "x"}}', {}),
    ("non_ascii_digits_pin", "/api/host/login", {"pin": "\u0661\u0662\u0663\u0664\u0665\u0666"}, {}),
    ("last_event_id_5000_digits", "/api/events?last_event_id={boot}-" + "9" * 5000, None, {}),
    ("last_event_id_header_5000_digits", "/api/events", None, {"Last-Event-ID": "{boot}-" + "9" * 5000}),
    ("superscript_digits", "/api/events?last_event_id={boot}-%C2%B2", None, {}),
    ("huge_game_id", "/host/export/record.json?game=" + "9" * 5000, None, {}),
    ("huge_step", "/api/replay/1/step/" + "9" * 5000, None, {}),
]


def bad_inputs(port: int, stderr: Path | None = None, repeat: int = 1) -> dict[str, Any]:
    """Each bad input (`repeat` times, from anonymous clients; a stream's once): its status and code; 5xx answers
    and the bytes the table logged meanwhile."""
    boot = event_boot(port)
    before = stderr.stat().st_size if stderr else 0
    first: dict[str, Any] = {}
    seen: dict[str, dict[str, int]] = {}
    server_errors = 0
    sent = 0
    for i in range(repeat):
        for name, path, body, headers in BAD_INPUTS:
            method = "GET" if body is None else "POST"
            path = path.replace("{boot}", boot)
            headers = {k: v.replace("{boot}", boot) for k, v in headers.items()}
            if method == "GET" and path.startswith("/api/events"):
                if i:
                    continue
                status, body_bytes = _stream_status(port, path, headers)
            else:
                status, _, body_bytes = request(port, method, path, body, headers)
            sent += 1
            server_errors += status >= 500
            first.setdefault(name, [status, code_of(body_bytes)])
            answer = f"{status} {code_of(body_bytes)}"
            seen.setdefault(name, {})[answer] = seen.get(name, {}).get(answer, 0) + 1
    time.sleep(0.3)
    logged = (stderr.stat().st_size - before) if stderr else None
    return {"first": first, "all": seen, "server_errors": server_errors, "requests": sent,
            "log_bytes": logged}


def event_boot(port: int) -> str:
    """The boot part of the table's event ids (`BOOT-N`), read from a stream's first event."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        for _ in range(10):
            line = resp.readline().decode()
            if line.startswith("id: "):
                return line[4:].strip().rpartition("-")[0]
        raise RuntimeError("no event id in the stream")
    finally:
        conn.close()


def _stream_status(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read() if resp.status != 200 else b""
    finally:
        conn.close()


def junk_terminal(seconds: float = 5.0) -> dict[str, Any]:
    """A USB device on a pty that sends junk lines as fast as it can for `seconds`, read by the table's terminal
    hub: how many log lines that made."""
    import logging
    import os
    import pty

    from companion.hal.terminal_link import SerialTerminalHub

    master, slave = pty.openpty()
    path = os.ttyname(slave)
    records: list[logging.LogRecord] = []

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Count()
    root = logging.getLogger()
    root.addHandler(handler)
    old = root.level
    root.setLevel(logging.INFO)
    hub = SerialTerminalHub([path], discover=None)
    hub.start(lambda event: None)
    stop = time.monotonic() + seconds
    lines = 0
    try:
        while time.monotonic() < stop:
            try:
                os.write(master, b"{junk\n" * 64)
                lines += 64
            except BlockingIOError:
                time.sleep(0.001)
    finally:
        hub.close()
        root.removeHandler(handler)
        root.setLevel(old)
        os.close(master)
        os.close(slave)
    return {"seconds": seconds, "junk_lines_sent": lines, "log_lines": len(records)}


# --- item 7: a second USB device claims a seat terminal's id ----------------------------------------------------

def usb_intruder(mode: str = "vote", guesses: int = 40, screens: int = 6) -> dict[str, Any]:
    """A table with five firmware terminals on ptys; a second device on its own pty says hello as the acting seat's
    terminal. `vote`: it sends every option of `guesses` ballot ids `<game>.<n>` on `screens` screens each, and
    the figure is how many rows that put in the journal (the real terminal never pressed). `silence`: it sends one
    choice with seq 2147483647, then the real terminal votes, and the figure is whether that vote was counted."""
    import os
    import tty

    from companion.hal import terminal_protocol as proto
    from tests.hal.test_terminal_pty_games import PtyTable, wait
    from tests.table.helpers import live_rows

    directory = Path(tempfile.mkdtemp(prefix="usb-intruder-"))
    table = PtyTable(directory, "secret_hitler", 5)
    master, slave = os.openpty()
    tty.setraw(slave)
    path = directory / "by-id" / "usb-MicroPython_intruder-if00"
    received: list[bytes] = []
    stop = threading.Event()
    try:
        loop = table.rt.loop
        session = loop.session
        assert session is not None
        seat = min(session.rules.to_act(session.state))
        real = table.devices[seat]
        ballot = wait(lambda: (p := loop.seat_prompt(seat)) and p.get("ballot"), what="the seat's prompt")
        hello = proto.encode(proto.Hello(real.terminal_id, "0.3.0", 12345))

        def device() -> None:
            buffer = proto.LineBuffer()
            while not stop.is_set():
                try:
                    data = os.read(master, 4096)
                except OSError:
                    return
                for line in buffer.feed(data):
                    if line:
                        received.append(line)
                        if b'"t":"hello"' in line:
                            os.write(master, hello)

        threading.Thread(target=device, daemon=True).start()
        os.symlink(os.ttyname(slave), path)
        wait(lambda: any(b'"t":"hello"' in line for line in received), what="the Pi's hello to the intruder")
        time.sleep(0.5)
        rows = len(live_rows(table.rt))
        sent = 0
        figures: dict[str, Any] = {"seat_ballot": ballot}
        if mode == "vote":
            seq = 1
            for n in range(1, guesses + 1):
                for screen in range(1, screens + 1):
                    for value in range(8):
                        wire = f"{session.game_id}.{n}:{screen}"
                        os.write(master, proto.encode(proto.Choice(wire, seq, str(value))))
                        seq, sent = seq + 1, sent + 1
            time.sleep(1.0)
            loop.wait_idle()
            figures["forged_rows"] = len(live_rows(table.rt)) - rows
        else:
            os.write(master, proto.encode(proto.Choice("x.1:1", 0x7FFFFFFF, "0")))
            sent = 1
            time.sleep(0.5)
            loop.wait_idle()
            started = time.monotonic()
            table.choose(seat, 0)
            try:
                wait(lambda: len(live_rows(table.rt)) > rows, timeout=8.0)
                figures["real_vote_counted_s"] = round(time.monotonic() - started, 2)
            except AssertionError:
                figures["real_vote_counted_s"] = None
        figures["forged_sent"] = sent
        figures["hello_answered"] = [line.decode() for line in received if b'"t":"error"' in line][:1]
        figures["host_told"] = any(r.get("clashes") for r in loop.terminals.rows())
        return figures
    finally:
        stop.set()
        table.close()
        if os.path.lexists(path):
            os.unlink(path)
        os.close(slave)
        os.close(master)
        shutil.rmtree(directory, ignore_errors=True)


# --- item 6: the data directory removed under a running table ---------------------------------------------------

def removed_data(config: Path, data: Path, port: int, root: Path, actions: int = 30) -> dict[str, Any]:
    """`rm -rf` of the data directory while the table runs: further actions acknowledged, a second table on the
    same path, and what a restart finds of them."""
    from tests.table.test_crash import call
    opener, csrf = host(port)
    tokens = [t["token"] for t in call(port, "GET", "/api/host/state", opener=opener)[1]["game"]["seat_tokens"]]

    def play(n: int) -> tuple[int, list[str]]:
        acked, codes = 0, []
        for _ in range(n):
            state = call(port, "GET", "/api/state")[1]
            if state["game"]["outcome"] is not None:
                status, body = call(port, "POST", "/api/host/new_game", {"replace": True}, csrf, opener)
                codes.append(str(body.get("code", "ok")))
                continue
            seat = state["game"]["to_act"][0]
            prompt = call(port, "GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]
            if not prompt:
                codes.append("no_prompt")
                continue
            status, body = call(port, "POST", "/api/action",
                                {"token": tokens[seat], "action": prompt["options"][0]["action"]})
            acked += status == 200
            codes.append(str(body.get("code", "ok")))
        return acked, codes

    before, _ = play(8)
    shutil.rmtree(data)
    after, codes = play(actions)
    second = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data",
                               str(data), "--port", str(free_port())], cwd=root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        second_exit: int | None = second.wait(8)
        second_err = (second.stderr.read() if second.stderr else "").strip().splitlines()[-1:]
    except subprocess.TimeoutExpired:
        second_exit, second_err = None, ["still running after 8 s"]
        second.terminate()
        second.wait(10)
    return {"acked_before": before, "acked_after_rm": after, "codes_after_rm": sorted(set(codes)),
            "second_table_exit": second_exit, "second_table_said": second_err}


def host(port: int, pin: str = PIN) -> tuple[Any, dict[str, str]]:
    """A logged-in host: (cookie-keeping opener, CSRF header)."""
    import http.cookiejar
    import urllib.request

    from tests.table.test_crash import call
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    status, body = call(port, "POST", "/api/host/login", {"pin": pin}, opener=opener)
    assert status == 200, body
    return opener, {"X-CSRF-Token": body["csrf"]}


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- running them all against a checkout ---------------------------------------------------------------------------

class Started:
    """`companion run` from `root` with a 10-seat mock table and PIN, stderr kept in a file."""

    def __init__(self, root: Path, directory: Path, extra_web: str = "") -> None:
        text = (root / "hardware" / "tables" / "mock-10-seats.toml").read_text()
        text = text.replace("[web]\n", f'[web]\nhost_pin = "{PIN}"\n{extra_web}', 1)
        text = "\n".join(line for line in text.splitlines() if not line.startswith("# host_pin"))
        self.config = directory / "table.toml"
        self.config.write_text(text)
        self.data, self.port, self.root = directory / "data", free_port(), root
        self.stderr = directory / "stderr.txt"
        self._err = self.stderr.open("w")
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(self.config),
                                      "--data", str(self.data), "--port", str(self.port)], cwd=root,
                                     stdout=subprocess.DEVNULL, stderr=self._err)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"companion run from {root} did not come up: {self.stderr.read_text()[-400:]}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._err.close()


def _fresh(root: Path) -> Iterator[Started]:
    directory = Path(tempfile.mkdtemp(prefix="attack-"))
    table = Started(root, directory)
    try:
        yield table
    finally:
        table.stop()
        shutil.rmtree(directory, ignore_errors=True)


AGAINST_A_TABLE: list[tuple[str, str, Callable[[Started], Any]]] = [
    ("rebinding", "rebinding", lambda t: rebinding(t.port)),
    ("pin_flood", "pin_flood", lambda t: pin_flood(t.port)),
    ("connections", "connections_one_address", lambda t: connection_flood(t.port)),
    ("connections", "connections_spread", lambda t: connection_flood(t.port, spread=True)),
    ("connections", "connections_spread_400", lambda t: connection_flood(t.port, idle=200, slowloris=200, spread=True)),
    ("slowloris", "slowloris_cut", lambda t: slowloris_cut(t.port)),
    ("streams", "stream_hog", lambda t: stream_hog(t.port)),
    ("bad_inputs", "bad_inputs", lambda t: bad_inputs(t.port, t.stderr, repeat=250)),
    ("removed_data", "removed_data", lambda t: removed_data(t.config, t.data, t.port, t.root)),
]
"""(name for --only, figure's key, the attack on a freshly started table)."""


def run_all(root: Path, only: list[str] | None = None) -> dict[str, Any]:
    """Every attack, each against a fresh table from `root` (a checkout); the junk terminal in a process of its
    own importing that checkout."""
    figures: dict[str, Any] = {}
    for name, key, attack in AGAINST_A_TABLE:
        if not only or name in only:
            for table in _fresh(root):
                figures[key] = attack(table)
    if not only or "junk_terminal" in only:
        figures["junk_terminal"] = _in(root, "junk_terminal")
    if not only or "usb_intruder" in only:
        figures["usb_intruder_vote"] = _in(root, "usb_intruder")
        figures["usb_intruder_silence"] = _in(root, "usb_intruder", "'silence'")
    return figures


def _in(root: Path, name: str, args: str = "") -> Any:
    """Run an in-process attack with `root`'s companion package (a subprocess importing it from there); `args`:
    its arguments as Python source."""
    code = ("import json, sys, importlib.util as u; "
            f"s = u.spec_from_file_location('attacks', {str(Path(__file__).resolve())!r}); "
            f"m = u.module_from_spec(s); s.loader.exec_module(m); print(json.dumps(m.{name}({args})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Print every attack's figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the checkout whose `companion run` is attacked (default: this one)")
    parser.add_argument("--only", nargs="*", help="attack names (rebinding pin_flood connections slowloris "
                                                  "streams bad_inputs junk_terminal usb_intruder removed_data)")
    args = parser.parse_args()
    print(json.dumps(run_all(args.root.resolve(), args.only), indent=1))


if __name__ == "__main__":
    main()
