"""A client that offers only a password: the server asks for none, and says how to log in
(as a guest, or with a key) while the client is logging in."""

from __future__ import annotations

import asyncio
import os
import shutil

import asyncssh
import pytest


LANGUAGE_STARTS = ("This server asks for no password.",
                   "Ce serveur ne demande aucun mot de passe.",
                   "Este servidor no pide contraseña.",
                   "Цей сервер не питає пароля.")


class _BannerReader(asyncssh.SSHClient):
    """A client that keeps the authentication banners it is shown."""

    def __init__(self) -> None:
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


@pytest.mark.parametrize("user, shown", [("ann", "ann"), ("root", "guest")])
async def test_a_password_is_refused_with_a_banner_saying_how_to_log_in(server, user, shown):
    """Passwords are not asked for: a client set to passwords alone is told, in each of the
    game's languages (its own is not known yet), the command that logs in as a guest, and
    is refused; it is not asked for a password again. The command names a user the server
    takes (typed from a ``root`` shell, one that names none would log in as root, which
    the server refuses)."""
    reader = _BannerReader()
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", server.port, username=user, password="hunter2",
                               preferred_auth="password", client_keys=None,
                               known_hosts=None, agent_path=None,
                               client_factory=lambda: reader)
    assert len(reader.banners) == 1, reader.banners
    lines = reader.banners[0].splitlines()
    assert [line.split(" ", 5)[:4] for line in lines] == [
        start.split(" ", 5)[:4] for start in LANGUAGE_STARTS]
    command = (f"ssh -o PreferredAuthentications=keyboard-interactive -p {server.port} "
               f"{shown}@127.0.0.1")
    assert all(command in line for line in lines), lines


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs the OpenSSH client")
async def test_openssh_with_passwords_alone_shows_how_to_log_in(server, tmp_path):
    """``ssh -o PreferredAuthentications=password``: OpenSSH shows the banner, then its
    usual refusal; the command it names logs in as a guest, and a keyless OpenSSH client
    with its defaults still gets in as a guest without being asked for a password."""
    askpass = tmp_path / "askpass"
    askpass.write_text("#!/bin/sh\necho hunter2\n")
    askpass.chmod(0o700)
    base = ["ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o",
            "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o",
            f"IdentityFile={tmp_path / 'none'}", "-T", "-p", str(server.port)]
    env = {**os.environ, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force",
           "DISPLAY": ":0"}

    async def ssh(*options: str) -> tuple[int, str]:
        proc = await asyncio.create_subprocess_exec(
            *base, *options, "ann@127.0.0.1", stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
            start_new_session=True)  # no terminal of its own: askpass answers
        out, _ = await asyncio.wait_for(proc.communicate(), 30)
        return proc.returncode, out.decode(errors="replace")

    status, said = await ssh("-o", "PreferredAuthentications=password")
    assert status == 255, said
    assert LANGUAGE_STARTS[0] in said and "Permission denied (publickey,keyboard-interactive)" \
        in said, said
    command = (f"ssh -o PreferredAuthentications=keyboard-interactive -p {server.port} "
               f"ann@127.0.0.1")
    assert command in said, said
    for options in (("-o", "PreferredAuthentications=keyboard-interactive"), ()):
        status, said = await ssh(*options)
        assert "Diamant needs a terminal" in said and LANGUAGE_STARTS[0] not in said, said
