"""Runs the real firmware main loop on a host: these shims first on the path, then firmware/terminal.

Usage: sim_boot.py FIRMWARE_DIR SIM_DIR, under `micropython` (unix port) or python; stdin/stdout are the
device end of a pty. Used by the tests and `companion bench`; never copied to a Pico.
"""

import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import main  # noqa: E402

main.main()
