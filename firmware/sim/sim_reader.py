"""Stand-in for the terminal's MFRC522 on a host (tests only): the tag is whatever $TERMINAL_SIM_TAG's file
holds (hex UID, or nothing for no tag); a file reading "fail" makes the reader fail to start."""

import os

_PATH = os.getenv("TERMINAL_SIM_TAG")


class SimReader:
    def poll(self):
        try:
            with open(_PATH) as f:
                text = f.read().strip()
        except OSError:
            return None
        if not text:
            return None
        return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


def open_reader(cfg):
    """A reader reading the tag file; OSError (as a dead chip would) when the file says fail."""
    try:
        with open(_PATH) as f:
            if f.read().strip() == "fail":
                raise OSError("no MFRC522 answering (VersionReg 0x00)")
    except OSError as exc:
        if "MFRC522" in str(exc):
            raise
    return SimReader()
