"""Where players reach the server: the join command for every address it listens on, and
the host key's fingerprint as their ``ssh`` shows it on the first connection.

A server listening on every address (``0.0.0.0``, ``::`` or an empty host) is reached at
each address of each of the machine's interfaces, listed with ``ifaddr`` (standard
library sockets cannot list them on every system). IPv6 link-local addresses are left out:
a client must name its own interface to use one (``fe80::1%eth0``), which the server
cannot know.
"""

from __future__ import annotations

import ipaddress
import socket
import unicodedata
from typing import Callable, Iterable

import asyncssh
import ifaddr
from asyncssh.saslprep import SASLPrepError, saslprep

from diamant_tui.names import clean_name

WILDCARDS = ("0.0.0.0", "::", "")
KEY_TYPES = {
    b"ssh-ed25519": "ED25519",
    b"ssh-ed448": "ED448",
    b"ssh-rsa": "RSA",
    b"ssh-dss": "DSA",
    b"sk-ssh-ed25519@openssh.com": "ED25519-SK",
    b"sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA-SK",
}
"""OpenSSH's name for each kind of key, as it writes it in "… key fingerprint is …"."""


def fingerprint_line(key: asyncssh.SSHKey) -> str:
    """The line OpenSSH shows on a first connection to this server, e.g.
    ``ED25519 key fingerprint is SHA256:…``: players compare it with what the host says."""
    algorithm = key.algorithm
    kind = KEY_TYPES.get(algorithm) or ("ECDSA" if algorithm.startswith(b"ecdsa-") else
                                        algorithm.decode("ascii", "replace").upper())
    return f"{kind} key fingerprint is {key.get_fingerprint('sha256')}."


def interface_addresses(family: int) -> list[str]:
    """The addresses of this machine's interfaces in ``family`` (AF_INET or AF_INET6),
    loopback last, IPv6 link-local ones left out (see the module docstring)."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple):  # IPv6: (address, flowinfo, scope id)
                if family != socket.AF_INET6:
                    continue
                address = ipaddress.ip_address(ip.ip[0].split("%")[0])
            else:
                if family != socket.AF_INET:
                    continue
                address = ipaddress.ip_address(ip.ip)
            if address.version == 6 and address.is_link_local:
                continue
            if str(address) not in found:
                found.append(str(address))
    return sorted(found, key=lambda a: ipaddress.ip_address(a).is_loopback)


def reachable_addresses(listening: Iterable[tuple[int, str]]) -> list[str]:
    """The addresses players can type, for sockets listening on ``listening`` (each a
    family and an address): a wildcard stands for every interface's address."""
    found: list[str] = []
    for family, address in listening:
        expanded = interface_addresses(family) if address in WILDCARDS else [address]
        found.extend(a for a in expanded if a not in found)
    # The machine's own addresses first (what friends type), loopback last.
    return sorted(found, key=lambda a: _is_loopback(a))


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


def join_command(address: str, port: int, user: str | None = None, *,
                 terminal: bool = False) -> str:
    """``ssh [-t] [-p PORT] [USER@]ADDRESS``: no ``-p`` for port 22, ``-t`` with
    ``terminal`` (a command typed after the host runs without one otherwise), and
    ``USER@`` with a ``user`` (ssh splits it at the last ``@``: an IPv6 address after it
    is read whole)."""
    target = f"{user}@{address}" if user else address
    return " ".join(["ssh"] + (["-t"] if terminal else [])
                    + ([] if port == 22 else ["-p", str(port)]) + [target])


def split_public_host(public_host: str) -> tuple[str, str | None]:
    """The host and what stands for a port in the ``public_host`` setting: ``host`` or
    ``host:port``, an IPv6 address alone (``::1``: its colons are its own) or in brackets,
    with a port or without (``[::1]:2222``, ``[::1]``). The port is None where none is
    given, and as written otherwise, a number or not (the setting's check refuses what
    is not)."""
    if public_host.startswith("[") and "]" in public_host:
        host, _, rest = public_host[1:].partition("]")
        return host, rest.removeprefix(":") if rest else None
    if public_host.count(":") == 1:  # host:port (a bare IPv6 address has several)
        host, _, given = public_host.partition(":")
        return host, given
    return public_host, None


def public_host_and_port(public_host: str, port: int) -> tuple[str, int]:
    """The host and port players type, from the ``public_host`` setting
    (:func:`split_public_host`): ``port`` where none is given (or what follows the colon
    is not a number); the host is empty when the setting is."""
    host, given = split_public_host(public_host)
    return host, int(given) if given is not None and given.isdigit() else port


FALLBACK_LOGIN = "guest"
"""The user name a shown command uses when the person's own cannot be typed as is."""
_LOGIN_PUNCTUATION = "._-"


def _typable(char: str) -> bool:
    """Whether ``char`` may stand in a user name typed as is (see :func:`_typed_as_is`)."""
    category = unicodedata.category(char)
    return char in _LOGIN_PUNCTUATION or category[0] in "LM" or category == "Nd"


def _typed_as_is(name: str) -> bool:
    """Whether ``name`` is a word that every shell passes on unchanged and that OpenSSH
    takes as a user name: letters of any script (with their accents), digits, ``.``,
    ``_`` and ``-``, not first (``ssh`` would read an option). Spaces, quotes, ``$``,
    brackets and the like would need quoting, which differs from shell to shell, and
    OpenSSH refuses several of them in a user name typed on its command line."""
    return bool(name) and not name.startswith("-") and all(map(_typable, name))


def login_name(name: str, refused: Callable[[str], bool]) -> str | None:
    """The user name to put in a command shown to the person called ``name`` (e.g.
    ``ssh -t -p 2222 ann@host resume CODE``), so that it works whatever account they type
    it from (``root``, say, a name the server refuses): their own name if it can be typed
    as is; else that name with its spaces as ``_`` and what cannot be typed left out
    (``ann b`` is ``ann_b``); else ``guest``. Each is checked as the server will: a name
    the SSH library keeps as it is (SASLprep), the game too, and not ``refused``. None if
    none is (the command then names no user)."""
    simpler = "".join("_" if ch.isspace() else ch for ch in name
                      if ch.isspace() or _typable(ch))
    for candidate in (name, simpler.lstrip("-"), FALLBACK_LOGIN):
        if not _typed_as_is(candidate) or clean_name(candidate) != candidate:
            continue
        try:
            if saslprep(candidate) != candidate:
                continue
        except SASLPrepError:  # e.g. right-to-left letters cut before the name's end
            continue
        if not refused(candidate):
            return candidate
    return None


def join_commands(listening: Iterable[tuple[int, str]], port: int,
                  public_host: str = "") -> list[str]:
    """The join command for every address the server listens on; the configured public
    host (``public_host``: see :func:`public_host_and_port`) first, when there is one."""
    commands = []
    if public_host:
        commands.append(join_command(*public_host_and_port(public_host, port)))
    for address in reachable_addresses(listening):
        command = join_command(address, port)
        if command not in commands:
            commands.append(command)
    return commands


def socket_addresses(sockets: Iterable[socket.socket]) -> list[tuple[int, str]]:
    """Each listening socket's family and address."""
    return [(sock.family, sock.getsockname()[0]) for sock in sockets]
