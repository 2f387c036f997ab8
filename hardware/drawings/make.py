"""Regenerates every drawing in this folder (`make docs`): WireViz harnesses from *.yml, schemdraw circuits from
circuits.py. Usage: make.py [OUTPUT_DIR] (default: this folder)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def render(out: Path) -> list[Path]:
    """Every drawing as SVG into `out`; the paths written."""
    import schemdraw
    from wireviz.wireviz import parse

    sys.path.insert(0, str(HERE))
    from circuits import CIRCUITS

    schemdraw.use("svg")  # schemdraw's own SVG writer: text stays text, no matplotlib fonts involved
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(HERE.glob("*.yml")):
        parse(source, output_formats=("svg",), output_dir=out, output_name=source.stem)
        written.append(out / f"{source.stem}.svg")
    for name, draw in CIRCUITS.items():
        draw(str(out / f"{name}.svg"))
        written.append(out / f"{name}.svg")
    return written


if __name__ == "__main__":
    for path in render(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(path)
