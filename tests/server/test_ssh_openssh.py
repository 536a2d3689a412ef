"""The real OpenSSH client, in a real terminal (tmux), plays a short game on the server."""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import shutil
import uuid

import asyncssh
import pytest

pytestmark = pytest.mark.skipif(
    not (shutil.which("ssh") and shutil.which("tmux")), reason="needs ssh and tmux installed")

WAIT = 60.0
TURN = re.compile(r"Round (\d)/5 · card (\d+)")


class Tmux:
    """A detached tmux session on its own server socket (no clash with anyone's tmux)."""

    def __init__(self) -> None:
        self.socket = f"diamant-test-{uuid.uuid4().hex[:8]}"

    async def run(self, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            "tmux", "-L", self.socket, *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await proc.communicate()
        assert proc.returncode == 0, err.decode()
        return out.decode()

    async def screen(self) -> str:
        return await self.run("capture-pane", "-p", "-t", "game")

    async def wait_for(self, test, timeout: float = WAIT) -> str:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            text = await self.screen()
            if test(text):
                return text
            assert loop.time() < end, f"not on screen:\n{text}"
            await asyncio.sleep(0.2)

    async def kill(self) -> None:
        try:
            await self.run("kill-server")
        except AssertionError:
            pass


def ssh_command(tmp_path, port: int, *options: str) -> list[str]:
    """The real ssh client's command line up to the remote command, as ann: a new key of
    its own (written to ``tmp_path``), no known hosts, no prompts; ``options`` besides."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_path = tmp_path / "id_ed25519"
    key.write_private_key(key_path)
    key_path.chmod(0o600)
    return ["ssh", *options, "-o", "StrictHostKeyChecking=no", "-o",
            "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes",
            "-o", "BatchMode=yes", "-i", str(key_path), "-p", str(port), "ann@127.0.0.1"]


async def run_ssh(*command: str, stdout: int, stderr: int,
                  timeout: float = 20.0) -> tuple[int, bytes | None, bytes | None]:
    """Run ``command`` (the ssh client) with no input; its exit status and what it wrote
    (where ``stdout`` and ``stderr`` are pipes). Killed if it has not ended in ``timeout``
    seconds."""
    proc = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.DEVNULL, stdout=stdout, stderr=stderr)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, out, err


def score_row(game, seat: int) -> re.Pattern:
    """The final-scores row of ``seat``: place, name, each round's takings and the total."""
    rounds = " +".join(str(r.banked[seat]) for r in game.round_results)
    return re.compile(rf"^ *\d+[★ ] {re.escape(game.names[seat])} +{rounds} +{game.score(seat)} ",
                      re.MULTILINE)


async def test_openssh_in_tmux_plays_a_short_game(server, tmp_path):
    """The real ssh client plays a game to the final scores (those the server counted),
    goes back to the lobby, leaves with a clean exit, and gets its terminal back: the
    main screen, the cursor shown and no mouse reporting."""
    ssh = (shlex.join(ssh_command(tmp_path, server.port, "-t"))
           + " play tmuxcave --seats 3 --bots 2; echo ssh exited with status $?; sleep 30")
    tmux = Tmux()
    try:
        await tmux.run("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", ssh)
        await tmux.wait_for(lambda t: "Your turn" in t)
        text = await tmux.screen()
        assert "▶ ann" in text
        answered = None
        while True:
            text = await tmux.wait_for(
                lambda t: "Final scores" in t or ("Your turn" in t and TURN.search(t)
                                                  and TURN.search(t)[0] != answered))
            if "Final scores" in text:
                break
            answered = TURN.search(text)[0]
            await tmux.run("send-keys", "-t", "game", "l")
        game = server.lobby.get("tmuxcave").game
        assert game is not None and game.over
        for seat in range(3):
            assert score_row(game, seat).search(text), (game.names[seat], text)
        await tmux.run("send-keys", "-t", "game", "q")  # back to the lobby
        text = await tmux.wait_for(lambda t: "Diamant over SSH ◆ the lobby" in t)
        assert "You are ann (known by your SSH key)" in text and "Final scores" not in text
        await tmux.run("send-keys", "-t", "game", "q")  # and out: OpenSSH's screen is restored
        text = await tmux.wait_for(lambda t: "ssh exited with status" in t)
        assert "ssh exited with status 0" in text, text
        assert "lobby" not in text and "Diamant" not in text, text
        modes = await tmux.run("display", "-p", "-t", "game",
                               "#{alternate_on} #{cursor_flag} #{mouse_any_flag}")
        assert modes.split() == ["0", "1", "0"], "main screen, cursor shown, no mouse reporting"
    finally:
        await tmux.kill()


async def test_openssh_with_setenv_no_color_gets_no_colour(server, tmp_path):
    """OpenSSH sends NO_COLOR only when told to (SetEnv, or SendEnv for a variable of the
    client's own); then the game arrives without a single colour, bold and reverse kept."""
    ssh = (shlex.join(ssh_command(tmp_path, server.port, "-t", "-o", "SetEnv=NO_COLOR=1"))
           + " play plain --seats 3 --bots 2; sleep 30")
    tmux = Tmux()
    try:
        # tmux offers 256 colours (TERM=tmux-256color or screen-256color), which the game
        # would use without NO_COLOR.
        await tmux.run("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", ssh)
        await tmux.wait_for(lambda t: "Your turn" in t)
        styled = await tmux.run("capture-pane", "-p", "-e", "-t", "game")
        params = {int(p) for seq in re.findall(r"\x1b\[([0-9;]*)m", styled)
                  for p in seq.split(";") if p}
        assert not params & {*range(30, 38), *range(40, 48), *range(90, 98),
                             *range(100, 108), 38, 48}, styled
        assert params & {1, 7}, "bold and reverse video are still there"
    finally:
        await tmux.kill()


async def test_input_that_ends_at_once_ends_the_session_without_an_error(server, tmp_path,
                                                                         caplog):
    """``ssh -tt host play t < /dev/null``: the client's input ends while the app makes its
    first screen. The session ends, the server logs no error (it logged the app's failure,
    ``MountError``: the app was asked to end before its screen was mounted), and the client
    exits by itself, its terminal given back (it stayed connected: no exit status came)."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    ssh = ssh_command(tmp_path, server.port, "-tt")
    for attempt in range(3):  # the end of input meets the app at a slightly different point
        status, out, _ = await run_ssh(
            *ssh, "play", f"quiet{attempt}", "--seats", "3", "--bots", "2",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert status == 0
        # The terminal as it was: the main screen again, the cursor shown.
        assert out.rfind(b"\x1b[?1049l") > out.rfind(b"\x1b[?1049h") >= 0
        assert out.rfind(b"\x1b[?25h") > out.rfind(b"\x1b[?25l") >= 0
        assert any(r.getMessage().endswith(": closed") and r.name == "diamant_server.session"
                   for r in caplog.records)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, [r.getMessage() for r in errors]
        caplog.clear()


async def _openssh_kex(tmp_path, port: int, *options: str) -> tuple[int, str]:
    """Run the real ssh client with no terminal (the server says to use ``ssh -t`` and
    ends the session) and return its exit status and debug output."""
    status, _, err = await run_ssh(
        *ssh_command(tmp_path, port, "-o", "LogLevel=DEBUG1", "-T", *options),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    return status, err.decode(errors="replace")


async def test_openssh_with_its_defaults_gets_aes_and_an_hmac(server, tmp_path):
    """OpenSSH prefers ChaCha20-Poly1305, then AES-CTR with UMAC: the server offers
    neither of those (each several times the CPU of AES here), so OpenSSH's defaults agree
    on AES-CTR with HMAC-SHA2 (encrypt-then-MAC) in both directions."""
    status, debug = await _openssh_kex(tmp_path, server.port)
    agreed = re.findall(r"kex: (server->client|client->server) cipher: (\S+) MAC: (\S+)", debug)
    assert status == 1 and len(agreed) == 2, debug  # 1: the server's "use ssh -t"
    for _, cipher, mac in agreed:
        assert cipher == "aes128-ctr" and mac == "hmac-sha2-256-etm@openssh.com", debug


async def test_openssh_told_to_use_only_chacha20_says_no_cipher_matches(server, tmp_path):
    """``ssh -c chacha20-poly1305@openssh.com``: OpenSSH itself says that no cipher matches
    and lists what the server offers, and exits with an error."""
    status, debug = await _openssh_kex(tmp_path, server.port, "-c", "chacha20-poly1305@openssh.com")
    assert status == 255, debug
    assert "no matching cipher found" in debug and "aes128-gcm@openssh.com" in debug, debug
