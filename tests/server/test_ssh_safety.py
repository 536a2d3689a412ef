"""Nothing a client does acts on the server's machine, and one broken session stays alone."""

from __future__ import annotations

import logging
import re

import asyncssh
import pytest
from textual.app import App

from diamant_server.app import make_app_factory
from diamant_server.auth import clean_name
from diamant_server.server import GameServer


def test_display_names_lose_control_characters_and_are_cut_to_16():
    assert clean_name("ann\x1b[31m\x07") == "ann [31m"
    assert clean_name("  bob\tthe\nbuilder  ") == "bob the builder"
    assert clean_name("x" * 40) == "x" * 16
    assert clean_name("\x00\x01") == "player"


async def test_no_forwarding_no_sftp_and_a_bounded_number_of_sessions(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    conn = ann.conn
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", server.port)  # a local port forward
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
    with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError, OSError)):
        await conn.start_sftp_client()
    assert server.config.max_sessions_per_connection == 1
    with pytest.raises(asyncssh.ChannelOpenError, match="at most 1 session per connection"):
        await conn.create_session(asyncssh.SSHClientSession, "watch x", term_type="xterm",
                                  encoding=None)


async def test_colours_follow_each_clients_terminal(server, players, make_key):
    """16 colours, 256, truecolor (COLORTERM), NO_COLOR and none, side by side in one server."""
    codes = {}
    for name, term, env in (("ann", "xterm", {}), ("bob", "xterm-256color", {}),
                            ("cy", "xterm-256color", {"COLORTERM": "truecolor"}),
                            ("dee", "xterm-256color", {"NO_COLOR": "1"}),
                            ("eve", "dumb", {}), ("fay", "xterm", {"NO_COLOR": ""})):
        person = players(name)
        await person.connect(server.port, key=make_key(), term_type=term, env=env)
        await person.wait_for("lobby")
        codes[name] = bytes(person.raw)
    assert b"38;5;" not in codes["ann"] and b"38;2;" not in codes["ann"]
    assert b"38;5;" in codes["bob"] and b"38;2;" not in codes["bob"]
    assert b"38;2;" in codes["cy"]
    # NO_COLOR (set and not empty) and a terminal without colours: no colour code at all.
    for plain in ("dee", "eve"):
        params = {int(p) for seq in re.findall(rb"\x1b\[([0-9;]*)m", codes[plain])
                  for p in seq.split(b";") if p}
        assert not params & {*range(30, 38), *range(40, 48), *range(90, 98), 38, 48}, plain
    # An empty NO_COLOR does not ask for anything (no-color.org): 16 colours, as for ann.
    assert b"38;5;" not in codes["fay"] and b"38;2;" not in codes["fay"]


async def test_a_lone_escape_key_arrives_as_escape(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.press("escape")  # nothing follows it: the parser must time out to emit it
    await ann.wait_for(lambda t: "Open a table" not in t)


class _Broken(App[None]):
    """An app with a bug that shows on the first key."""

    def on_key(self) -> None:
        raise RuntimeError("a bug in one session")


async def test_a_crashing_session_is_logged_and_closed_and_the_others_go_on(
        tmp_path, players, make_key, caplog):
    from conftest import TEST_CONFIG
    from dataclasses import replace

    normal: list = []

    def factories(lobby):
        usual = make_app_factory(lobby, idle_timeout=600)

        def build(session):
            return _Broken() if session.identity.name == "crash" else usual(session)

        normal.append(usual)
        return build

    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path), app_factory=factories)
    await server.start()
    try:
        ann = players("ann")
        await ann.connect(server.port, key=make_key())
        await ann.wait_for("lobby")
        broken = players("crash")
        await broken.connect(server.port, key=make_key())
        broken.press("x")
        with caplog.at_level(logging.ERROR, logger="diamant_server"):
            await broken.wait_closed()
        assert re.search(rb"something went wrong \(session s\d+\)", broken.raw)
        assert b"Traceback" not in broken.raw and b"RuntimeError" not in broken.raw
        assert any(re.match(r"s\d+: the app failed", r.getMessage()) for r in caplog.records)
        ann.press("n")
        await ann.wait_for("Open a table")
    finally:
        await server.stop()
