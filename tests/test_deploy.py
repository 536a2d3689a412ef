"""The shipped systemd unit: systemd's own checks accept it and rate it well hardened.

Skipped where systemd-analyze is not installed (CI installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "deploy" / "diamant.service"
ANALYZE = shutil.which("systemd-analyze")

pytestmark = pytest.mark.skipif(ANALYZE is None, reason="needs systemd-analyze")


@pytest.fixture
def unit(tmp_path) -> Path:
    """The unit as shipped, starting this environment's `diamant` (verify checks that the
    program exists) instead of /opt/diamant's."""
    program = Path(sys.executable).parent / "diamant"
    assert program.exists(), program
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/diamant/bin/diamant serve --port 22\n" in text
    copy = tmp_path / "diamant.service"
    copy.write_text(text.replace("/opt/diamant/bin/diamant", str(program)), encoding="utf-8")
    return copy


def test_systemd_verifies_the_unit(unit):
    done = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "diamant.service" not in done.stderr, done.stderr  # no warning about it


def test_systemd_rates_the_unit_well_hardened(unit):
    done = subprocess.run([ANALYZE, "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    level = re.search(r"Overall exposure level for diamant\.service: ([\d.]+) (\w+)", done.stdout)
    assert level is not None, done.stdout
    # systemd's scale: 0 (locked down) to 10 (unprotected); up to 2.9 is "OK".
    assert float(level.group(1)) <= 2.0 and level.group(2) == "OK", level.group(0)
    for line in ("✓ NoNewPrivileges=", "✓ ProtectSystem=", "✓ SystemCallFilter=~@privileged"):
        assert line in done.stdout, line
