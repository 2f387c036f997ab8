"""Run inside a private network namespace (`unshare -n`): a table with one live stream, then the network goes for
N seconds (loopback down: nothing is acknowledged, as when a phone walks out of Wi-Fi); prints the streams the
table still counts once the network is back, as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.server.table import Table, write_config


def main(gone_s: float) -> None:
    """Open a stream, take the network away for `gone_s`, report what the table still holds."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    directory = Path(tempfile.mkdtemp())
    table = Table(write_config(directory), directory / "data")
    try:
        conn, resp = table.stream()  # held open to the end: a dropped connection would close (FIN) by itself
        deadline = time.monotonic() + 5
        while table.call("GET", "/api/state")[1]["health"]["sse_clients"] != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        before = table.call("GET", "/api/state")[1]["health"]["sse_clients"]
        subprocess.run(["ip", "link", "set", "lo", "down"], check=True)
        time.sleep(gone_s)
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        after = table.call("GET", "/api/state")[1]["health"]["sse_clients"]
        print(json.dumps({"before": before, "after": after}))
        resp.close()
        conn.close()
    finally:
        table.stop()


if __name__ == "__main__":
    main(float(sys.argv[1]))
