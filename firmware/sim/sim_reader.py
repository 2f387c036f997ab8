"""Stand-in for the terminal's MFRC522 on a host (tests only): the tag is whatever $TERMINAL_SIM_TAG's file
holds (hex UID, or nothing for no tag; two UIDs with a comma: two tags, "unreadable": a CRC error); a file
reading "fail" makes the reader fail to start."""

import os

_PATH = os.getenv("TERMINAL_SIM_TAG")


class SimReader:
    def scan(self, prefer=None):
        """(kind, uid, crowded) as drivers.rfid.Reader.scan answers."""
        try:
            with open(_PATH) as f:
                text = f.read().strip()
        except OSError:
            return "empty", None, False
        if text == "unreadable":
            return "unreadable", None, False
        uids = [bytes(int(u[i:i + 2], 16) for i in range(0, len(u), 2)) for u in text.split(",") if u]
        if not uids:
            return "empty", None, False
        uid = prefer if prefer in uids else uids[0]
        return "tag", uid, len(uids) > 1

    def poll(self):
        return self.scan()[1]


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
