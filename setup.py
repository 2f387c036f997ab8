"""Ships the page: a non-editable build copies top-level web/ into companion/web/_site (see companion/web/site.py).

Everything else about the distribution is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

WEB = Path(__file__).resolve().parent / "web"
TARGET = ("companion", "web", "_site")


def copy_site(build_lib: str) -> list[str]:
    """Copy web/ (templates, static, i18n) into the built package; returns the files written."""
    dest = Path(build_lib, *TARGET)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(WEB, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    return [str(p) for p in dest.rglob("*") if p.is_file()]


class BuildWithSite(build_py):
    """build_py that also ships the page's files (editable installs read web/ in place instead)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            self._site_files = copy_site(self.build_lib)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *getattr(self, "_site_files", [])]


if __name__ == "__main__":  # the build backend runs this file as __main__
    setup(cmdclass={"build_py": BuildWithSite})
