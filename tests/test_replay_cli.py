"""``diamant replay FILE`` as a person runs it: the replay screen in a real terminal (a pty
read through pyte), and one clear line for anything in its way: exit status 1 for a file
that is not a good record, in every mode, and 2 for a command that cannot run as given."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pyte
import pytest
from rich.cells import cell_len

from diamant_tui.cli import main
from diamant_tui.engine.record import FORMAT

WAIT = 60.0
"""Seconds a test waits for the screen to show something (the machine is shared)."""
NAMES = ["ann", "bob", "cy"]
LEAVE_ALL = {"cards": ["T3"], "decisions": [{n: "leave" for n in NAMES}]}
GOOD = {"format": FORMAT, "rules": "classic", "players": NAMES,
        "meta": {"table": "den-2", "started": "2025-03-01T18:45:02Z"},
        "rounds": [LEAVE_ALL] * 5}
HINT = "Choose a game record saved by diamant (the diamant-record/1 format)."


def write(tmp_path, content, name="game.json") -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else
                     (content if isinstance(content, str) else json.dumps(content)).encode())
    return str(path)


class Terminal:
    """A program running in a pseudo-terminal of 80x24, its screen read through pyte."""

    def __init__(self, *args: str, size=(80, 24)) -> None:
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "PYTHONWARNINGS": "ignore"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen([sys.executable, "-m", "diamant_tui", *args],
                                        stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True)
        os.close(slave)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, words: str) -> None:
        """Read what the program draws until ``words`` are on the screen."""
        end = time.monotonic() + WAIT
        while words not in self.text():
            if time.monotonic() > end:
                raise AssertionError(f"{words!r} never appeared:\n{self.text()}")
            if not self._read(end - time.monotonic()):
                raise AssertionError(f"the program ended before {words!r}:\n{self.text()}")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the program has gone and closed its side
                return False
            if not data:
                return False
            self.stream.feed(data)
        return True

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def finish(self) -> int:
        """Read until the program ends; its exit status."""
        end = time.monotonic() + WAIT
        while self.process.poll() is None and time.monotonic() < end:
            if not self._read(0.5):
                break
        return self.process.wait(timeout=WAIT)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def test_replay_file_opens_the_screen_steps_through_the_game_and_quits(tmp_path):
    terminal = Terminal("replay", write(tmp_path, GOOD), "--lang", "en")
    try:
        # A frame may reach the terminal in several writes: wait for each part.
        terminal.wait_for("step 1 of 15")
        terminal.wait_for("Replay · den-2 · 2025-03-01 18:45 UTC")
        terminal.wait_for("Round 1 begins: everyone enters the cave.")
        terminal.send(b"\x1b[C")  # the right arrow: one step on
        terminal.wait_for("step 2 of 15")
        terminal.wait_for("Treasure 3: 1♦ each for the 3 in the cave")
        terminal.send(b"\x1b[F")  # End: the last step, the final scores
        terminal.wait_for("step 15 of 15")
        terminal.wait_for("Shared victory: ann, bob, cy")
        terminal.send(b"q")
        assert terminal.finish() == 0
    finally:
        terminal.close()


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The installed command, its output captured (no terminal)."""
    return subprocess.run([sys.executable, "-m", "diamant_tui", *args], input=stdin,
                          capture_output=True, text=True, timeout=WAIT,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})


def test_a_bad_record_is_one_line_saying_what_is_wrong_and_what_to_do(tmp_path):
    bad = {**GOOD, "rounds": [{"cards": ["T3", "T3"],
                               "decisions": [{n: "continue" for n in NAMES}] * 2}]}
    path = write(tmp_path, bad)
    done = run("replay", path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"diamant replay: {path}: round 1, step 2: T3 is not in the deck: the only T3 is "
        f"already on this round's path. {HINT}"
    ]


def test_a_missing_file_says_so_and_what_to_check(tmp_path):
    path = str(tmp_path / "nothing.json")
    done = run("replay", path)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"diamant replay: {path}: cannot read the file: No such file or directory. "
        "Check the file's name and that you may read it."
    ]


BAD_FILES = [
    ("{", "not valid JSON: Expecting property name enclosed in double quotes at line 1 "
          "column 2.", HINT),
    (json.dumps(GOOD)[:200], "not valid JSON: Unterminated string", HINT),  # cut short
    (b"\xff\xfe{}", "not a record: the file is not UTF-8 text.", HINT),
    ([GOOD], "the record must be a JSON", HINT),
    ({**GOOD, "meta": {"seats": {"ann": "person"}}}, "meta: seats gives no seat for bob, cy",
     HINT),
    ({**GOOD, "rules": "chess"}, "unknown rule set 'chess'; choose one of", HINT),
    (None, "cannot read the file: No such file or directory.",
     "Check the file's name and that you may read it."),
    ("folder", "cannot read the file: it is a folder.",
     "Give the name of a record file, not of its folder."),
]


def bad_file(tmp_path, content) -> str:
    """A path to ``content`` written as a file; a missing file for None, a folder for
    ``"folder"``."""
    if content is None:
        return str(tmp_path / "nothing.json")
    if content == "folder":
        (tmp_path / "records").mkdir()
        return str(tmp_path / "records")
    return write(tmp_path, content)


@pytest.mark.parametrize(("content", "words", "hint"), BAD_FILES, ids=[
    "bad-json", "cut-short", "not-utf8", "not-an-object", "bad-meta", "unknown-rules",
    "missing", "folder"])
@pytest.mark.parametrize("mode", [(), ("--json",), ("--summary",)],
                         ids=["screen", "json", "summary"])
def test_every_bad_file_is_refused_alike_in_every_mode(tmp_path, capsys, content, words,
                                                        hint, mode):
    """The printing modes said what was wrong but not what to do, and exited 1 where the
    screen exited 2: each mode now says both, in one line before any screen opens, and
    exits with status 1."""
    path = bad_file(tmp_path, content)
    assert main(["replay", path, *mode]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"diamant replay: {path}: {words}")
    assert err.rstrip().endswith(hint)


def test_a_bad_record_on_standard_input_is_refused_alike(tmp_path):
    for mode in ("--json", "--summary"):
        done = run("replay", "-", mode, stdin="{")
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.startswith("diamant replay: -: not valid JSON")
        assert done.stderr.rstrip().endswith(HINT)


def test_the_screen_cannot_take_its_record_on_standard_input(tmp_path):
    done = run("replay", "-", stdin=json.dumps(GOOD))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "diamant replay: the replay screen reads its keys from standard input, so the record "
        "cannot come from there: give its file name, or add --json or --summary to print the "
        "outcome."
    ]


def test_without_a_terminal_it_says_how_to_print_the_outcome_instead(tmp_path):
    path = write(tmp_path, GOOD)
    done = run("replay", path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"diamant replay: {path}: the replay screen needs a terminal; add --summary or --json "
        "to print the outcome instead."
    ]
    assert run("replay", path, "--summary").stdout.startswith("classic, 3 players")


def test_an_unknown_language_is_refused(tmp_path, capsys):
    assert main(["replay", write(tmp_path, GOOD), "--lang", "de"]) == 2
    assert capsys.readouterr().err == (
        "diamant replay: --lang: unknown language 'de'; choose one of en, fr, es, uk.\n")


def test_help_tells_each_exit_status(capsys):
    """What the statuses mean is the help's to say, for scripts."""
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ("Exit status: 0 when the record is good; 1 when the file cannot be read or is "
            "not a valid record") in help_text
    assert "in every mode" in help_text
    assert "2 when the command cannot run as given" in help_text


ESCAPED = {**GOOD, "players": ["ann", "bob", "c\x1b[2Jy"],
           "rounds": [{"cards": ["T3"], "decisions": [
               {n: "leave" for n in ["ann", "bob", "c\x1b[2Jy"]}]}] * 5}


def test_a_name_holding_an_escape_never_reaches_the_terminal_as_it_is(tmp_path, capsys):
    """A record's names are kept as written (the screen shows them safely); printed, an
    escape edited into one is written as an escape, so it cannot clear the terminal, and
    a message quoting it stays one line."""
    path = write(tmp_path, ESCAPED)
    assert main(["replay", path, "--summary"]) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out and "c\\x1b[2Jy" in out and err == ""
    bad = write(tmp_path, {**ESCAPED, "rounds": [{"cards": ["T3"], "decisions": [
        {"ann": "leave", "bob": "leave", "cy": "leave"}]}]}, name="bad.json")
    for mode in ((), ("--summary",)):
        assert main(["replay", bad, *mode]) == 1
        out, err = capsys.readouterr()
        assert "\x1b" not in err and len(err.splitlines()) == 1, err
        assert "players are ann, bob, c\\x1b[2Jy." in err


def test_the_summary_lines_up_scores_after_names_in_wide_letters(tmp_path, capsys):
    """A CJK letter takes two columns: names were padded by their letters, and the
    scores after a name in CJK letters stood further right than the others."""
    names = ["山田太郎", "bob", "Олена"]
    record = {**GOOD, "players": names,
              "rounds": [{"cards": ["T3"], "decisions": [{n: "leave" for n in names}]}] * 5}
    assert main(["replay", write(tmp_path, record), "--summary"]) == 0
    out = capsys.readouterr().out.splitlines()
    scores = out[out.index("Scores:") + 1:out.index("Scores:") + 4]
    assert len({cell_len(line) for line in scores}) == 1, scores
