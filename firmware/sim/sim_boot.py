"""Runs the real firmware main loop on a host: these shims first on the path, then firmware/terminal.

Usage: sim_boot.py FIRMWARE_DIR SIM_DIR, under `micropython` (unix port) or python; stdin/stdout are the
device end of a pty. Used by the tests and `companion bench`; never copied to a Pico.
"""

import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import os  # noqa: E402

if os.getenv("TERMINAL_SIM_TAG"):  # the terminal has a reader: the tag file stands in for the MFRC522
    import config  # noqa: E402
    import sim_reader  # noqa: E402
    from drivers import rfid  # noqa: E402

    config.RFID = {"sim": True}
    rfid.open_reader = sim_reader.open_reader
else:  # no reader beside this simulated terminal
    import config  # noqa: E402

    config.RFID = None
if os.getenv("TERMINAL_SIM_PIXEL_PIN"):  # a test's miswired terminal
    import config  # noqa: E402

    config.PIXEL_PIN = int(os.getenv("TERMINAL_SIM_PIXEL_PIN"))
import main  # noqa: E402

main.ERROR_LOG = os.getenv("TERMINAL_SIM_LOG") or "/dev/null"  # the host's working directory is no Pico's flash
main.main()
