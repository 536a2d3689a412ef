"""What `diamant serve` prints at start-up (the join command for every address it listens
on, the host key as OpenSSH shows it) and what `diamant serve --check` says."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from diamant_server.hostkey import HOST_KEY_NAME
from diamant_server.storage import DATABASE

DIAMANT = [sys.executable, "-m", "diamant_tui"]
BANNER_CHECK = [sys.executable, "-c",
                "import socket,sys; "
                "s=socket.create_connection((sys.argv[1], int(sys.argv[2])), 5); "
                "sys.exit(0 if s.recv(64).startswith(b'SSH-2.0-') else 1)"]
"""Opens a TCP connection and reads the SSH banner (the container's health check)."""


async def start_lines(*command: str) -> tuple[asyncio.subprocess.Process, list[str]]:
    """Start ``command`` (a `diamant serve`) and read what it prints up to its join lines
    (its standard output ends there: it is read until nothing more comes for a while)."""
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DIAMANT_LOG_LEVEL": "warning"})
    lines: list[str] = []
    try:
        while not lines or lines[-1] != "Join with:":
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, (lines, (await proc.stderr.read()).decode())
            lines.append(line.decode().rstrip("\n"))
        # The join lines follow at once, each indented; the first line that is not one
        # would be noise: none comes before the server is stopped.
        while True:
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), 2)
            except TimeoutError:
                break
            if not line:
                break
            lines.append(line.decode().rstrip("\n"))
    except BaseException:
        proc.kill()
        await proc.wait()
        raise
    return proc, lines


async def stop(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 60) == 0


def join_lines(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines[lines.index("Join with:") + 1:]]


def machine_addresses(family: str) -> list[str]:
    """This machine's addresses as iproute2 lists them (``-4`` or ``-6``), not loopback,
    not IPv6 link-local."""
    out = subprocess.run(["ip", "-o", family, "addr", "show"], capture_output=True,
                         text=True, check=True).stdout
    found = []
    for match in re.finditer(r"inet6? ([0-9a-f.:]+)/\d+ [^\\]*?scope (\w+)", out):
        address, scope = match.groups()
        if scope == "global" and address not in found:
            found.append(address)
    return found


@pytest.mark.skipif(not shutil.which("ssh-keygen"), reason="needs OpenSSH's ssh-keygen")
async def test_a_loopback_server_prints_one_join_line_and_the_key_as_ssh_shows_it(tmp_path):
    proc, lines = await start_lines(*DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0",
                                    "--data-dir", str(tmp_path))
    await stop(proc)
    port = int(lines[0].removeprefix("Diamant server listening on 127.0.0.1 port "))
    assert lines[1:] == [
        lines[1], f"Data folder: {tmp_path}", "Join with:", f"  ssh -p {port} 127.0.0.1"]
    # OpenSSH's own words for the key (ssh-keygen names its type and fingerprint).
    listed = subprocess.run(["ssh-keygen", "-lf", str(tmp_path / (HOST_KEY_NAME + ".pub"))],
                            capture_output=True, text=True, check=True).stdout.split()
    assert lines[1] == f"{listed[-1].strip('()')} key fingerprint is {listed[1]}."


@pytest.mark.skipif(not shutil.which("ip"), reason="needs iproute2 to list the addresses")
async def test_a_server_on_every_address_prints_a_join_line_for_each(tmp_path):
    """The machine's own addresses first (what friends type), loopback last."""
    proc, lines = await start_lines(*DIAMANT, "serve", "--host", "0.0.0.0", "--port", "0",
                                    "--data-dir", str(tmp_path))
    await stop(proc)
    port = int(lines[0].removeprefix("Diamant server listening on 0.0.0.0 port "))
    expected = [f"ssh -p {port} {address}" for address in machine_addresses("-4")]
    assert join_lines(lines) == expected + [f"ssh -p {port} 127.0.0.1"]


@pytest.mark.skipif(not (shutil.which("ssh") and shutil.which("script")),
                    reason="needs the OpenSSH client and script (util-linux)")
async def test_the_printed_fingerprint_is_the_line_openssh_shows_on_first_connection(tmp_path):
    proc, lines = await start_lines(*DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0",
                                    "--data-dir", str(tmp_path))
    try:
        port = lines[0].rsplit(" ", 1)[1]
        # ssh asks on a terminal whether to trust the key: script gives it one; "no".
        ssh = (f"ssh -F /dev/null -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=ask "
               f"-p {port} ann@127.0.0.1")
        asked = await asyncio.create_subprocess_exec(
            "script", "-qc", ssh, "/dev/null", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await asyncio.wait_for(asked.communicate(b"no\n"), 60)
    finally:
        await stop(proc)
    assert lines[1] in out.decode().replace("\r", "").splitlines(), out.decode()


def _in_a_namespace_of_our_own() -> bool:
    """Whether this test may make a network namespace with an interface of its own."""
    if os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("ip")
                                 and shutil.which("nsenter")):
        return False
    done = subprocess.run(["unshare", "-n", "ip", "link", "add", "v0", "type", "veth", "peer",
                           "name", "v1"], capture_output=True)
    return done.returncode == 0


@pytest.mark.skipif(not _in_a_namespace_of_our_own(),
                    reason="needs root, unshare, nsenter and iproute2 (a network namespace)")
async def test_in_a_namespace_with_a_lan_address_the_join_lines_name_it(tmp_path):
    """A machine whose network is known: loopback and one interface with an IPv4 and an
    IPv6 address (and the IPv6 link-local one the kernel gives it, which is left out).
    The server listens on every address; a client in the same namespace reaches it at
    the printed LAN address. Nothing leaves the namespace."""
    setup = ("ip link set lo up && ip link add v0 type veth peer name v1 && "
             "ip addr add 10.123.0.7/24 dev v0 && ip -6 addr add fd12::7/64 dev v0 nodad && "
             "ip link set v0 up && ip link set v1 up && exec \"$@\"")
    proc, lines = await start_lines(
        "unshare", "-n", "sh", "-c", setup, "sh", *DIAMANT, "serve", "--host", "",
        "--port", "23750", "--data-dir", str(tmp_path))
    try:
        assert lines[0] == "Diamant server listening on every address port 23750"
        assert sorted(join_lines(lines)[:2]) == ["ssh -p 23750 10.123.0.7",
                                                 "ssh -p 23750 fd12::7"]
        assert sorted(join_lines(lines)[2:]) == ["ssh -p 23750 127.0.0.1",
                                                 "ssh -p 23750 ::1"]
        for address in ("10.123.0.7", "fd12::7"):
            reached = await asyncio.create_subprocess_exec(
                "nsenter", f"--net=/proc/{proc.pid}/ns/net", *BANNER_CHECK, address, "23750")
            assert await asyncio.wait_for(reached.wait(), 60) == 0, address
    finally:
        await stop(proc)


# --- diamant serve --check --------------------------------------------------------------

def check(*args: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([*DIAMANT, "serve", "--check", *args], capture_output=True,
                          text=True, timeout=60, **options)


def one_line_failure(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 1, done.stdout
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Check failed: "), done.stderr
    return lines[0]


def test_check_on_a_good_configuration_says_what_the_server_would_do(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text('max_connections = 50\nserver_name = "Cave club"\nmetrics_port = 23761\n')
    data = tmp_path / "data"
    done = check("--config", str(toml), "--host", "127.0.0.1", "--port", "23760",
                 "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "The settings are good: the server would start.",
        "It would listen on 127.0.0.1 port 23760; players would join with:",
        "  ssh -p 23760 127.0.0.1",
        f"Host key: none yet; a new ED25519 key would be made in {data / HOST_KEY_NAME}",
        f"Data folder: {data} (would be created)",
        f"Database: {data / DATABASE} would be created",
        "Metrics: http://127.0.0.1:23761/metrics",
        "Settings that differ from the defaults: max_connections = 50, "
        "server_name = 'Cave club', metrics_port = 23761",
    ]
    assert not data.exists(), "a check changes nothing"
    # With a host key there, the check shows its fingerprint as players' ssh will.
    from diamant_server.addresses import fingerprint_line
    from diamant_server.hostkey import load_or_create

    key = load_or_create(data)
    done = check("--host", "127.0.0.1", "--port", "23760", "--data-dir", str(data))
    assert f"Host key: {fingerprint_line(key)}" in done.stdout.splitlines()
    assert f"Data folder: {data} (writable)" in done.stdout.splitlines()


def test_check_names_a_bad_setting(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text('max_connections = "many"\n')
    line = one_line_failure(check("--config", str(toml), "--data-dir", str(tmp_path)))
    assert line == f"Check failed: {toml}: max_connections: 'many' is not a whole number"
    toml.write_text('log_chat = "perhaps"\n')
    assert "log_chat: 'perhaps' is neither true nor false" in one_line_failure(
        check("--config", str(toml), "--data-dir", str(tmp_path)))
    toml.write_text('port = 2222\nport = 2223\n')
    assert "is not valid TOML" in one_line_failure(check("--config", str(toml)))


def test_check_refuses_a_file_in_place_of_the_data_folder(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    for folder in (blocked, blocked / "data"):
        line = one_line_failure(check("--port", "0", "--data-dir", str(folder)))
        assert f"{blocked} is a file, not a folder" in line and "--data-dir" in line


WITHOUT_ROOTS_RIGHTS = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
"""As root, a command that must meet file permissions (as the server's own user would)
runs without the capabilities that let root read and write any file."""


def check_as_the_server(*args: str) -> subprocess.CompletedProcess:
    """``diamant serve --check`` as an ordinary user would run it: meeting permissions."""
    prefix = WITHOUT_ROOTS_RIGHTS if os.geteuid() == 0 else []
    return subprocess.run([*prefix, *DIAMANT, "serve", "--check", *args],
                          capture_output=True, text=True, timeout=60)


needs_setpriv = pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"),
                                   reason="as root, needs setpriv to give up root's rights")


@needs_setpriv
def test_check_refuses_a_data_folder_the_server_cannot_write(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o500)
    try:
        line = one_line_failure(check_as_the_server("--port", "0", "--data-dir", str(data)))
    finally:
        data.chmod(0o700)
    assert line.startswith(f"Check failed: the data folder {data} cannot be written "
                           f"(Permission denied"), line
    assert "--data-dir" in line


def test_check_refuses_a_port_another_program_listens_on(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line_failure(check("--host", "127.0.0.1", "--port", str(port),
                                      "--data-dir", str(tmp_path)))
        assert line == (f"Check failed: the server cannot listen on 127.0.0.1 port {port}: "
                        f"another program listens there (a server already running?); stop "
                        f"it, or choose another port with --port")
        line = one_line_failure(check("--host", "127.0.0.1", "--port", "0", "--metrics-port",
                                      str(port), "--data-dir", str(tmp_path)))
        assert f"the metrics endpoint cannot listen on 127.0.0.1 port {port}" in line
        assert "--metrics-port" in line


@pytest.mark.skipif(Path("/proc/sys/net/ipv4/ip_unprivileged_port_start").exists() and int(
    Path("/proc/sys/net/ipv4/ip_unprivileged_port_start").read_text()) <= 22,
    reason="this machine lets anyone listen on port 22")
@needs_setpriv
def test_check_says_port_22_needs_a_privilege(tmp_path):
    """As the service's user without its one privilege (root gives up its own)."""
    prefix = ["setpriv", "--bounding-set", "-net_bind_service"] if os.geteuid() == 0 else []
    done = subprocess.run([*prefix, *DIAMANT, "serve", "--check", "--host", "127.0.0.1",
                           "--port", "22", "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    line = one_line_failure(done)
    assert line.startswith("Check failed: the server cannot listen on 127.0.0.1 port 22: "
                           "ports below 1024 need a privilege"), line
    assert "CAP_NET_BIND_SERVICE" in line


def test_check_refuses_a_damaged_database_and_leaves_it_as_it_is(tmp_path):
    (tmp_path / DATABASE).write_bytes(b"not a database" * 100)
    line = one_line_failure(check("--port", "0", "--data-dir", str(tmp_path)))
    assert line.startswith(f"Check failed: the database {tmp_path / DATABASE} ")
    assert (tmp_path / DATABASE).read_bytes() == b"not a database" * 100


@pytest.mark.parametrize("content", [b"garbage\n", b""])
def test_check_refuses_a_host_key_it_cannot_read(tmp_path, content):
    (tmp_path / HOST_KEY_NAME).write_bytes(content)
    line = one_line_failure(check("--port", "0", "--data-dir", str(tmp_path)))
    assert line.startswith(f"Check failed: cannot read the host key {tmp_path / HOST_KEY_NAME}")
    assert "move it away" in line


@needs_setpriv
def test_check_refuses_a_host_key_the_server_cannot_read(tmp_path):
    from diamant_server.hostkey import load_or_create

    load_or_create(tmp_path)
    key = tmp_path / HOST_KEY_NAME
    key.chmod(0)
    try:
        line = one_line_failure(check_as_the_server("--port", "0", "--data-dir", str(tmp_path)))
    finally:
        key.chmod(0o600)
    assert line.startswith(f"Check failed: cannot read the host key {key}: Permission denied")


@pytest.mark.parametrize("name, shown", [
    ("ann", "ann"),
    ("-ann", "ann"),              # first, ssh would read an option
    ("a-b.c_d", "a-b.c_d"),
    ("ann 'b'", "ann_b"),
    ("Admin x", "Admin_x"),
    ("admin", "guest"),           # the server refuses it (as root, say)
    ("[root]", "guest"),          # simplified, it is a refused name too
    ("שלום1", "guest"),           # right-to-left letters must end the name (SASLprep)
])
def test_the_user_name_in_shown_commands_is_one_the_server_takes(name, shown):
    """The name a shown command logs in under is typed as is in any shell and is taken by
    the server as it is: the person's own, simplified, or else ``guest``."""
    from diamant_server.addresses import login_name

    assert login_name(name, lambda n: n.lower() in ("admin", "root")) == shown
    assert login_name("guest", lambda n: True) is None  # nothing taken: no user named


# --- one server to a data folder ------------------------------------------------------------

async def test_a_second_server_on_the_same_data_folder_is_refused_while_tools_still_work(
        tmp_path):
    """Two servers on one data folder would both rebuild its saved tables and play them,
    keeping each game twice and rating it twice: the second is refused, by a real start and
    by --check, in one line naming the folder; `diamant backup` and `diamant export` still
    work beside the server; once the first server has gone, even killed, the folder is
    free again."""
    data = tmp_path / "data"
    first, _ = await start_lines(*DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0",
                                 "--data-dir", str(data))
    try:
        second = subprocess.run([*DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0",
                                 "--data-dir", str(data)], capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 1
        busy = (f"the data folder {data} is in use by another Diamant server (process "
                f"{first.pid}); two servers on one folder would play its saved tables "
                f"twice: stop that server first, or give this one another folder with "
                f"--data-dir")
        assert second.stderr.splitlines() == [f"Error starting server: {busy}"]
        assert one_line_failure(check("--host", "127.0.0.1", "--port", "0", "--data-dir",
                                      str(data))) == f"Check failed: {busy}"
        for tool in (["backup", str(tmp_path / "copy.sqlite3")], ["export", "--list"]):
            done = subprocess.run([*DIAMANT, *tool, "--data-dir", str(data)],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
    finally:
        first.kill()  # as a crash would: the lock goes with the process
        await first.wait()
    again, lines = await start_lines(*DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0",
                                     "--data-dir", str(data))
    await stop(again)
    assert lines[0].startswith("Diamant server listening on 127.0.0.1 port ")


async def test_a_server_in_this_process_holds_its_folder_until_it_stops(tmp_path):
    from dataclasses import replace

    from conftest import TEST_CONFIG
    from diamant_server.folder_lock import FolderInUse
    from diamant_server.server import GameServer

    config = replace(TEST_CONFIG, data_dir=tmp_path)
    first = GameServer(config)
    await first.start()
    try:
        with pytest.raises(FolderInUse, match=f"the data folder {tmp_path} is in use"):
            await GameServer(config).start()
    finally:
        await first.stop()
    second = GameServer(config)
    await second.start()
    await second.stop()


# --- a real start refused: what --check says, and nothing made -------------------------------

def start_refused(*args: str) -> str:
    """The one line a real `diamant serve` (logging at its usual level) prints when it
    cannot start, checked against what `--check` says for the same settings."""
    done = subprocess.run([*DIAMANT, "serve", *args], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error starting server: "), done.stderr
    reason = lines[0].removeprefix("Error starting server: ")
    assert one_line_failure(check(*args)) == f"Check failed: {reason}"
    return reason


def test_a_start_on_a_busy_port_says_what_check_says_and_makes_nothing(tmp_path):
    data = tmp_path / "data"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert start_refused("--host", "127.0.0.1", "--port", str(port), "--data-dir",
                             str(data)) == (
            f"the server cannot listen on 127.0.0.1 port {port}: another program listens "
            f"there (a server already running?); stop it, or choose another port with --port")
        assert not data.exists(), "no database, no host key for a start that cannot listen"
        reason = start_refused("--host", "127.0.0.1", "--port", "0", "--metrics-port",
                               str(port), "--data-dir", str(data))
        assert reason.startswith(f"the metrics endpoint cannot listen on 127.0.0.1 port "
                                 f"{port}: another program listens there")
        assert not data.exists()


def test_a_start_on_a_file_or_with_a_damaged_host_key_says_what_check_says(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    for folder in (blocked, blocked / "data"):
        assert start_refused("--host", "127.0.0.1", "--port", "0", "--data-dir",
                             str(folder)) == (
            f"the data folder {folder} cannot be used: {blocked} is a file, not a folder; "
            f"choose another folder with --data-dir")
    assert blocked.read_text() == "not a folder"
    data = tmp_path / "data"
    data.mkdir()
    (data / HOST_KEY_NAME).write_bytes(b"garbage\n")
    reason = start_refused("--host", "127.0.0.1", "--port", "0", "--data-dir", str(data))
    assert reason.startswith(f"cannot read the host key {data / HOST_KEY_NAME}: ")
    assert "restore it from a backup, or move it away" in reason
    assert (data / HOST_KEY_NAME).read_bytes() == b"garbage\n"
    assert sorted(p.name for p in data.iterdir()) == [HOST_KEY_NAME], "no database made"
