"""Runs the real firmware main loop on a host: shims first on the path, then firmware/terminal (tests only).

Usage: sim_boot.py FIRMWARE_DIR SHIMS_DIR (stdin/stdout are the device end of a pty).
"""

import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import main  # noqa: E402

main.main()
