"""A ``diamant`` command writes nothing to standard error that it did not mean to say."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("args", [["--version"], ["sim", "--help"], ["serve", "--help"]])
def test_a_command_starts_without_a_word_on_standard_error(args):
    """With cryptography 51, importing asyncssh (every command's module is imported to
    list them) printed ten lines of DSA deprecation warnings first."""
    done = subprocess.run([sys.executable, "-m", "diamant_tui", *args], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout


def test_only_asyncssh_s_deprecation_warnings_are_silenced():
    """The server's filter is narrow: the same warning from anywhere else still shows."""
    code = ("import warnings, diamant_server; "
            "from cryptography.utils import CryptographyDeprecationWarning as W; "
            "warnings.warn('elsewhere', W)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert "elsewhere" in done.stderr
