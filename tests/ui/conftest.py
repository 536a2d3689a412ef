"""The interface tests draw as on a usual terminal of 256 colours, whatever terminal runs
them: the app picks its colours from ``TERM``, ``COLORTERM`` and ``NO_COLOR``."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def colour_terminal(monkeypatch):
    """TERM=xterm-256color, no COLORTERM, no NO_COLOR (a test may set them again)."""
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("COLORTERM", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
