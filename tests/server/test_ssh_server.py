"""Start-up, settings, the host key, limits and a clean stop of `diamant serve`."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import stat
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import asyncssh
import pytest

from conftest import TEST_CONFIG
from diamant_tui.table import TableSettings, TableStatus
from diamant_server.config import ConfigError, ServerConfig, load
from diamant_server.hostkey import HOST_KEY_NAME, load_or_create
from diamant_server.limits import ConnectionLimits
from diamant_server.server import GameServer
from diamant_server.servecli import register

DIAMANT = [sys.executable, "-m", "diamant_tui"]


def parse(argv: list[str]):
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_the_host_key_is_made_once_private_and_reused(tmp_path):
    first = load_or_create(tmp_path / "data")
    path = tmp_path / "data" / HOST_KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create(tmp_path / "data")
    assert again.export_public_key() == first.export_public_key()
    assert first.algorithm == b"ssh-ed25519"


def test_settings_come_from_flags_then_environment_then_file(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text('port = 2300\nmax_connections = 7\nlogin_timeout = 5\npace = 0.1\n')
    env = {"DIAMANT_PORT": "2400", "DIAMANT_MAX_CONNECTIONS": "9"}
    config = load(parse(["--config", str(toml), "--port", "2500"]), env)
    assert (config.port, config.max_connections, config.login_timeout, config.pace) == (
        2500, 9, 5.0, 0.1)
    assert load(parse([]), {}) == ServerConfig()


@pytest.mark.parametrize("argv, env, message", [
    (["--port", "x"], {}, "port: 'x' is not a whole number"),
    ([], {"DIAMANT_MAX_PER_ADDRESS": "0"}, "max_per_address: must be more than 0"),
    (["--log-level", "loud"], {}, "log_level"),
])
def test_bad_settings_are_named(argv, env, message):
    with pytest.raises(ConfigError, match=message):
        load(parse(argv), env)


NUMBER_SETTINGS = [f.name for f in fields(ServerConfig) if f.type == "float"]


@pytest.mark.parametrize("name", NUMBER_SETTINGS)
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "NaN", "Infinity"])
def test_a_number_setting_refuses_nan_and_infinity_from_flags_and_environment(name, text):
    """nan passes every comparison (a pace of nan never turns a card, a flood limit of nan
    is none) and infinity waits for ever: neither is a setting, wherever it is given."""
    message = (f"{name}: {text!r} is not a finite number; give an ordinary number, "
               f"such as {getattr(ServerConfig(), name):g}")
    with pytest.raises(ConfigError, match=f"^command line: {re.escape(message)}$"):
        load(parse([f"--{name.replace('_', '-')}={text}"]), {})  # = : "-inf" is no flag
    with pytest.raises(ConfigError, match=f"^environment: {re.escape(message)}$"):
        load(parse([]), {"DIAMANT_" + name.upper(): text})


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_a_number_setting_refuses_nan_and_infinity_in_the_settings_file(tmp_path, value):
    toml = tmp_path / "serve.toml"
    toml.write_text(f"stop_grace = {value}\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(toml))}: stop_grace: "
                                          rf"'[+-]?(nan|inf)' is not a finite number"):
        load(parse(["--config", str(toml)]), {})
    with pytest.raises(ConfigError, match="stop_grace: must be a finite number, not nan"):
        from diamant_server.config import _check
        _check(replace(ServerConfig(), stop_grace=float("nan")))


def test_check_refuses_nan_where_it_approved_it(tmp_path):
    for argv, env in ((["--pace", "nan"], {}), ([], {"DIAMANT_INPUT_EVENTS_PER_SECOND": "inf"})):
        done = subprocess.run([*DIAMANT, "serve", "--check", "--port", "0", "--data-dir",
                               str(tmp_path), *argv], capture_output=True, text=True,
                              env={**os.environ, **env}, timeout=60)
        assert done.returncode == 1 and done.stdout == ""
        assert "is not a finite number" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("argv, env, message", [
    (["--port", "2312", "--metrics-port", "2312"], {},
     "metrics_port: 2312 is the port the server listens on (port); give the metrics "
     "endpoint a port of its own"),
    ([], {"DIAMANT_PORT": "2312", "DIAMANT_METRICS_PORT": "2312"},
     "metrics_port: 2312 is the port the server listens on"),
])
def test_the_metrics_port_cannot_be_the_servers_port(argv, env, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        load(parse(argv), env)
    assert load(parse(["--port", "0", "--metrics-port", "0"]), {}).metrics_port == 0


@pytest.mark.parametrize("argv, env, source", [
    (["--data-dir", ""], {}, "command line"),
    (["--data-dir", "  "], {}, "command line"),
    ([], {"DIAMANT_DATA_DIR": ""}, "environment"),
])
def test_an_empty_data_folder_is_refused_not_taken_for_the_current_one(argv, env, source):
    """An empty value (a template's ``DIAMANT_DATA_DIR=``) would have meant the current
    folder: an empty database and a new host key, wherever the server was started."""
    with pytest.raises(ConfigError, match=f"^{source}: data_dir: the path is empty; give "
                                          f"the data folder's path, or leave the setting "
                                          f"out for the default"):
        load(parse(argv), env)


def _check_says(tmp_path, argv: list[str], env: dict[str, str]) -> str:
    """What ``diamant serve --check`` says on standard error (it must fail in one line)."""
    done = subprocess.run([*DIAMANT, "serve", "--check", "--port", "0", "--data-dir",
                           str(tmp_path / "data"), *argv], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60)
    assert done.returncode == 1 and done.stdout == "", done
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr.strip()


@pytest.mark.parametrize("name", ["data_dir", "public_host", "motd", "admins"])
def test_a_number_in_the_settings_file_where_a_text_is_meant_is_refused(tmp_path, name):
    """data_dir = 5 made a data folder called 5 beside wherever the server was started."""
    toml = tmp_path / "serve.toml"
    toml.write_text(f"{name} = 5\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(str(toml))}: {name}: 5 is a number; "
                                          f"give a text in quotes \\({name} = \"...\"\\)$"):
        load(parse(["--config", str(toml)]), {})
    assert not (Path.cwd() / "5").exists()


@pytest.mark.parametrize("public_host", ["a b", "play.example.org:ssh", "play.example.org:0",
                                         "host;reboot", "[::1]x", "$(id)", ":2222"])
def test_a_public_host_players_could_not_type_is_refused(tmp_path, public_host):
    """It is put in the commands players are shown: with a space, two words."""
    said = _check_says(tmp_path, [f"--public-host={public_host}"], {})
    assert said == (f"Check failed: command line: public_host: {public_host!r} is not a host "
                    f"players can type; give a name or an address, with a port if it is not "
                    f"the one the server listens on (such as play.example.org or "
                    f"play.example.org:22)")


@pytest.mark.parametrize("public_host", ["play.example.org", "play.example.org:22", "::1",
                                         "[2001:db8::7]:2222", "192.0.2.7", "пример.укр"])
def test_a_public_host_players_can_type_is_taken(public_host):
    assert load(parse(["--public-host", public_host]), {}).public_host == public_host


@pytest.mark.parametrize("line, flag", [
    ("pace = -3", "--pace=-3"),
    ("max_rows = 10", "--max-rows=10"),
    ("login_timeout = 0", "--login-timeout=0"),
    ("metrics_port = 70000", "--metrics-port=70000"),
    ('admins = ["boss"]', "--admins=boss"),
    ('server_name = "' + "x" * 41 + '"', "--server-name=" + "x" * 41),
])
def test_a_value_out_of_range_says_where_it_was_given(tmp_path, line, flag):
    """A file, variables and flags may all be in play: a refusal names the one that gave
    the value (the file's path, the environment or the command line), as a value that
    cannot be read does, so the host knows which one to change."""
    name, _, value = line.partition(" = ")
    toml = tmp_path / "serve.toml"
    toml.write_text(line + "\n")
    from_file = _check_says(tmp_path, ["--config", str(toml)], {})
    assert from_file.startswith(f"Check failed: {toml}: {name}: "), from_file
    text = from_file.removeprefix(f"Check failed: {toml}: ")
    env_value = value.strip('"[]')
    assert _check_says(tmp_path, [], {"DIAMANT_" + name.upper(): env_value}) == (
        f"Check failed: environment: {text}")
    # The flag beats the variable and the file: it is the one named.
    assert _check_says(tmp_path, ["--config", str(toml), flag],
                       {"DIAMANT_" + name.upper(): env_value}) == (
        f"Check failed: command line: {text}")


def test_a_negative_pace_is_echoed_as_written():
    with pytest.raises(ConfigError, match=r"^environment: pace: must not be negative, "
                                          r"not -3$"):
        load(parse([]), {"DIAMANT_PACE": "-3"})


def test_a_pace_no_table_would_take_is_refused_at_start():
    """A table takes at most 10 seconds of pace (a round's end pauses a minute then): a
    slower one let the server start, then turned the next card in 31 years for 1e9."""
    with pytest.raises(ConfigError, match=r"^environment: pace: at most 10 seconds from one "
                                          r"card to the next, not 1e\+09; give 0 to 10$"):
        load(parse([]), {"DIAMANT_PACE": "1e9"})
    assert load(parse([]), {"DIAMANT_PACE": "10"}).pace == 10


@pytest.mark.parametrize("variable, says", [
    ("DIAMANT_PROT", "unknown setting DIAMANT_PROT; did you mean DIAMANT_PORT?"),
    ("DIAMANT_port", "unknown setting DIAMANT_port; did you mean DIAMANT_PORT?"),
    ("DIAMANT_MAX_CONECTIONS",
     "unknown setting DIAMANT_MAX_CONECTIONS; did you mean DIAMANT_MAX_CONNECTIONS?"),
    ("DIAMANT_WHATEVER", "unknown setting DIAMANT_WHATEVER; diamant serve --help lists "
                         "the settings"),
])
def test_a_misspelt_variable_is_refused_naming_the_nearest_setting(tmp_path, variable, says):
    """An unknown key of the settings file is refused; so is an unknown ``DIAMANT_*``
    variable, which would otherwise leave the setting it meant at its default (the server
    on port 2222 when the host asked for 2302). ``--check`` and a real start say the same."""
    assert _check_says(tmp_path, [], {variable: "2302"}) == f"Check failed: environment: {says}"
    start = subprocess.run([*DIAMANT, "serve", "--port", "0", "--host", "127.0.0.1",
                            "--data-dir", str(tmp_path / "data")], capture_output=True,
                           text=True, env={**os.environ, variable: "2302"}, timeout=60)
    assert start.returncode == 1
    assert start.stderr.splitlines() == [f"Error starting server: environment: {says}"]
    assert not (tmp_path / "data").exists()


def test_diamant_config_is_no_setting_but_still_names_the_settings_file(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text('server_name = "Cave club"\n')
    done = subprocess.run([*DIAMANT, "serve", "--check", "--port", "0", "--data-dir",
                           str(tmp_path / "data")], capture_output=True, text=True,
                          env={**os.environ, "DIAMANT_CONFIG": str(toml)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Cave club" in done.stdout


def test_an_unknown_key_of_the_settings_file_names_the_nearest_setting(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text("prot = 2302\n")
    assert _check_says(tmp_path, ["--config", str(toml)], {}) == (
        f"Check failed: {toml}: unknown setting 'prot'; did you mean 'port'?")


def test_help_lists_every_setting_with_its_default():
    """Every setting, the limits among them, is a flag of its own with its default and its
    environment variable; the setting's help says what it is for."""
    out = subprocess.run([*DIAMANT, "serve", "--help"], capture_output=True, text=True,
                         check=True).stdout
    out = " ".join(out.split())
    for flag in ("--config", "DIAMANT_PORT", "default: 2222", "default: 500"):
        assert flag in out
    defaults = ServerConfig()
    for field in fields(ServerConfig):
        flag = "--" + field.name.replace("_", "-") + " "
        assert flag in out, flag
        if field.name != "data_dir":
            assert f"(default: {getattr(defaults, field.name)};" in out.split(flag, 1)[1], flag
        assert f"env DIAMANT_{field.name.upper()})" in out, field.name


def test_a_failed_start_is_one_line(tmp_path):
    busy = subprocess.run([*DIAMANT, "serve", "--port", "70000"], capture_output=True,
                          text=True)
    assert busy.returncode == 1
    assert busy.stderr.strip().splitlines() == [
        "Error starting server: command line: port: 70000 is not between 0 and 65535"]
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    bad = subprocess.run([*DIAMANT, "serve", "--data-dir", str(blocked), "--port", "0",
                          "--host", "127.0.0.1"], capture_output=True, text=True)
    assert bad.returncode == 1
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error starting server: ")


def test_the_connection_limits_count_and_refill():
    now = [0.0]
    limits = ConnectionLimits(3, 2, rate=1.0, burst=2, clock=lambda: now[0])
    assert limits.admit("a") is None
    assert limits.admit("a") is None
    assert "too many new connections" in limits.admit("a")
    now[0] = 5.0
    assert "at most 2 connections from one address" in limits.admit("a")
    assert not limits.hammering("a")
    assert limits.admit("b") is None
    assert "server is full" in limits.admit("c")
    for _ in range(3):
        limits.admit("c")
    assert limits.hammering("c")
    limits.release("a")
    now[0] = 10.0
    assert limits.admit("c") is None
    assert not limits.hammering("c")


async def test_limits_refuse_with_a_message_before_login(tmp_path, players, make_key):
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, max_per_address=1))
    await server.start()
    try:
        first = players("ann")
        await first.connect(server.port, key=make_key())
        await first.wait_for("lobby")
        with pytest.raises(asyncssh.DisconnectError, match="at most 1 connections"):
            await players("bob").connect(server.port, key=make_key())
    finally:
        await server.stop()


async def test_a_login_that_never_finishes_is_closed(tmp_path):
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, login_timeout=0.5))
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        banner = await reader.readline()
        assert banner.startswith(b"SSH-2.0-Diamant")
        # Say nothing more: the server hangs up once the login time is over.
        rest = await asyncio.wait_for(reader.read(), 30)
        assert reader.at_eof(), rest
        writer.close()
    finally:
        await server.stop()


async def test_an_idle_lobby_session_is_closed_with_a_message(tmp_path, players, make_key):
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, lobby_idle_timeout=0.6))
    await server.start()
    try:
        idle = players("ann")
        await idle.connect(server.port, key=make_key())
        await idle.wait_closed()
        assert b"idle in the lobby" in idle.raw
    finally:
        await server.stop()


async def test_an_idle_lobby_session_is_told_its_minutes_in_words_that_agree(tmp_path, players,
                                                                            make_key):
    """Under a minute of idle time is told as one minute, not "0 minutes", and in the
    singular: "Fermé après 1 minute d'inactivité", not "1 minutes"."""
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, lobby_idle_timeout=0.6))
    await server.start()
    try:
        idle = players("ann")
        await idle.connect(server.port, key=make_key(), env={"LANG": "fr_FR.UTF-8"})
        await idle.wait_closed()
        said = " ".join(idle.raw.decode().split())
        assert "Fermé après 1 minute d'inactivité dans le salon" in said, said
    finally:
        await server.stop()


async def test_stopping_tells_everyone_and_keeps_tables_for_the_next_start(tmp_path, players,
                                                                         make_key):
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    server.lobby.create(TableSettings(name="cave", seats=3, bots=("carry:20",) * 2, seed=1,
                                      pace=0.02), "test")
    ann, watcher = players("ann"), players("wes")
    ann_key = make_key()
    await ann.connect(server.port, key=ann_key, command="play cave")
    await ann.wait_for("Your turn")
    await watcher.connect(server.port, key=make_key())
    await watcher.wait_for("lobby")
    before = server.lobby.get("cave").record()
    saved = await server.stop()
    for person in (ann, watcher):
        await person.wait_closed()
        assert b"The server is stopping" in person.raw
    assert saved == ["cave"]
    # Started again on the same data folder, the table is there as it was, and ann's key
    # takes her straight back to her seat.
    again = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await again.start()
    try:
        table = again.lobby.get("cave")
        assert table is not None and table.status is TableStatus.PLAYING
        assert table.record()["rounds"] == before["rounds"]
        back = players("ann")
        await back.connect(again.port, key=ann_key)
        await back.wait_for("Your turn")
        assert table.seats[0].connected
    finally:
        await again.stop()


async def serve_once(data_dir, client_key) -> str:
    """Run `diamant serve` as a command, connect once, stop it with SIGTERM; returns the
    host key fingerprint it printed, after checking a client is shown that same key."""
    proc = await asyncio.create_subprocess_exec(
        *DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data_dir),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DIAMANT_LOG_LEVEL": "warning"})
    try:
        lines = [(await asyncio.wait_for(proc.stdout.readline(), 60)).decode() for _ in range(5)]
        port = int(lines[0].split("port ")[1])
        assert lines[1].startswith("ED25519 key fingerprint is SHA256:")
        assert lines[3:] == ["Join with:\n", f"  ssh -p {port} 127.0.0.1\n"]
        printed = lines[1].removeprefix("ED25519 key fingerprint is ").strip().rstrip(".")
        conn = await asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                      client_keys=[client_key], agent_path=None)
        assert conn.get_server_host_key().get_fingerprint("sha256") == printed
        conn.close()
        await conn.wait_closed()
    finally:
        if proc.returncode is None:
            proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 60) == 0
    return printed


async def test_the_server_runs_as_a_command_and_stops_on_sigterm(tmp_path, make_key):
    """It prints where it listens and its host key, serves, stops cleanly on SIGTERM,
    and on the next start in the same data folder shows clients the same host key."""
    first = await serve_once(tmp_path, make_key())
    key_file = (tmp_path / HOST_KEY_NAME).read_bytes()
    # The same host key on the next start: clients that remember it are not warned.
    assert await serve_once(tmp_path, make_key()) == first
    assert (tmp_path / HOST_KEY_NAME).read_bytes() == key_file


@pytest.mark.parametrize("public_host, port, expected", [
    ("", 2222, "ssh -t -p 2222 203.0.113.7 resume ABC123"),
    ("play.example.org", 2222, "ssh -t -p 2222 play.example.org resume ABC123"),
    ("play.example.org:22", 2222, "ssh -t play.example.org resume ABC123"),
    ("play.example.org:2200", 22, "ssh -t -p 2200 play.example.org resume ABC123"),
    ("::1", 22, "ssh -t ::1 resume ABC123"),
    ("[2001:db8::7]:2200", 22, "ssh -t -p 2200 2001:db8::7 resume ABC123"),
])
def test_commands_shown_to_players_name_the_host_they_use(public_host, port, expected):
    """The ``public_host`` setting (host or host:port) names the server in the commands
    players are shown; without it, the address the client connected to."""
    from diamant_server.session import GameSession

    session = GameSession(None, lambda s: None, port=port, public_host=public_host or None)
    session._local_address = "203.0.113.7"  # what the client's connection reached
    assert session.ssh_command("resume ABC123") == expected
    # With the person's user name, which ssh reads up to its last @, before the host.
    named = GameSession(None, lambda s: None, port=port, public_host=public_host or None,
                        login_name="zoé")
    named._local_address = "203.0.113.7"
    words = expected.split(" ")
    words[-3] = "zoé@" + words[-3]
    assert named.ssh_command("resume ABC123") == " ".join(words)


@pytest.mark.parametrize("public_host, host, port", [
    ("", "", 2222),
    ("play.example.org", "play.example.org", 2222),
    ("play.example.org:22", "play.example.org", 22),
    ("play.example.org:port", "play.example.org", 2222),  # not a number: the server's
    ("::1", "::1", 2222),  # a bare IPv6 address: every colon is its own
    ("2001:db8::7", "2001:db8::7", 2222),
    ("[2001:db8::7]:2200", "2001:db8::7", 2200),
    ("[::1]", "::1", 2222),
])
def test_the_public_host_is_read_the_same_way_wherever_it_is_shown(public_host, host, port):
    """The ``public_host`` setting (host, host:port, an IPv6 address bare or in brackets)
    gives one host and port to every command shown: the join line the server prints at
    start-up, and the lines shown to players."""
    from diamant_server.addresses import join_command, join_commands, public_host_and_port
    from diamant_server.session import GameSession

    assert public_host_and_port(public_host, 2222) == (host, port)
    if not public_host:
        assert join_commands([], 2222, public_host) == []
        return
    printed = join_commands([], 2222, public_host)[0]
    assert printed == join_command(host, port) == " ".join(
        ["ssh"] + ([] if port == 22 else ["-p", str(port)]) + [host])
    session = GameSession(None, lambda s: None, port=2222, public_host=public_host)
    assert session.ssh_command(terminal=False) == printed
    assert session.ssh_command("watch den", user="ann") == printed.replace(
        "ssh", "ssh -t", 1).replace(host, f"ann@{host}") + " watch den"


async def test_the_server_ends_without_the_interpreters_teardown_and_loses_no_line(tmp_path):
    """Once stopped, `diamant serve` ends the process at once: nothing registered to run at
    the interpreter's exit runs (its teardown would free every object one by one, seconds
    with hundreds of seats), and the log's last line and the exit status are still there."""
    torn_down = tmp_path / "torn-down"
    script = ("import atexit, sys\n"
              f"atexit.register(lambda: open({str(torn_down)!r}, 'w').write('yes'))\n"
              "from diamant_tui.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, "serve", "--host", "127.0.0.1", "--port", "0",
        "--data-dir", str(tmp_path / "data"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DIAMANT_LOG_LEVEL": "info"})
    try:
        port = int((await asyncio.wait_for(proc.stdout.readline(), 60)).decode().split("port ")[1])
        # The SSH banner comes once the loop serves, after the signal handlers are set.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert (await asyncio.wait_for(reader.readline(), 60)).startswith(b"SSH-2.0-")
        writer.close()
    finally:
        proc.terminate()
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0
    assert "stopped in" in err.decode().splitlines()[-1]
    assert not torn_down.exists()



async def test_a_server_stopped_as_it_says_it_listens_stops_cleanly(tmp_path):
    """SIGTERM while the server is writing that it listens (a script or a service manager
    that waits for those lines, or a slow terminal) gets the clean stop, its log's last
    line and status 0, not Python's default ending. The lines go to a pipe kept full, so
    the server is caught in the middle of writing them."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: one page
    os.set_blocking(write_end, False)
    try:
        while True:
            os.write(write_end, b"-" * 64)
    except BlockingIOError:
        pass  # full: the server's first write waits
    os.set_blocking(write_end, True)
    proc = await asyncio.create_subprocess_exec(
        *DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path),
        stdout=write_end, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DIAMANT_LOG_LEVEL": "info"})
    os.close(write_end)
    try:
        wchan = Path(f"/proc/{proc.pid}/wchan")  # the kernel's name for where it waits
        seen: set[str] = set()
        for _ in range(600):
            seen.add(wchan.read_text())
            if any(w.endswith("pipe_write") for w in seen):  # (anon_pipe_write, newer kernels)
                break
            await asyncio.sleep(0.1)
        if seen <= {"", "0"}:
            pytest.skip("this kernel does not say where a process waits (/proc/PID/wchan)")
        assert any(w.endswith("pipe_write") for w in seen), seen
    finally:
        proc.terminate()
    with os.fdopen(read_end, "rb") as pipe:
        printed = await asyncio.get_running_loop().run_in_executor(None, pipe.read)
    err = await asyncio.wait_for(proc.stderr.read(), 60)
    assert await asyncio.wait_for(proc.wait(), 60) == 0, err.decode()
    assert b"Diamant server listening" in printed
    assert "stopped in" in err.decode().splitlines()[-1]
