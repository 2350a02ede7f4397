"""The documentation site, built once per test worker (``mkdocs build --strict``, a few seconds:
the notebooks are rendered from their stored outputs, not executed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def build_site(site_dir: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` into ``site_dir``, in a process of its own (the build's own
    warnings are not this suite's: ``--strict`` fails the build on them)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site_dir)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built site's folder."""
    site_dir = tmp_path_factory.mktemp("site")
    result = build_site(site_dir)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return site_dir


def pages(site_dir: Path) -> list[Path]:
    """Every page of the built site (one index.html per page; the 404 page aside)."""
    return sorted(site_dir.rglob("index.html"))
