"""One SSH packet for each frame, not two: no empty ``SSH_MSG_IGNORE`` ahead of it.

Once a connection is encrypted, asyncssh sends an empty ``SSH_MSG_IGNORE`` packet ahead
of every packet past the key exchange: every frame a seat draws went out as two
packets, each encrypted on its own (about 15 µs a packet with ChaCha20-Poly1305, the
cipher OpenSSH prefers) and written to the socket on its own (a second system call and
a second TCP segment), and the client had two packets to decrypt.

That packet is the countermeasure RFC 4251 (section 9.3.1) gives against the attacks on
ciphers in CBC mode, whose next initialisation vector an attacker can know: an ignore
packet makes it unknowable. The server offers no CBC cipher (AES-GCM and AES-CTR, see
:mod:`.ciphers`), and AEAD and counter-mode ciphers take nothing from it; nor does an
empty packet sent ahead of every packet hide anything from traffic analysis. So the
server's connections send it only when a CBC cipher (or another not listed here) was
agreed on, which the server's offer never leads to.

``SSHConnection.send_packet`` and ``_enc_alg_sc`` (the cipher agreed on for what the
server sends) are private: this relies on the pinned minor version of asyncssh.
"""

from __future__ import annotations

from asyncssh.connection import SSHServerConnection
from asyncssh.constants import MSG_IGNORE

_SAFE_WITHOUT_IGNORE = frozenset((b"chacha20-poly1305@openssh.com", b"aes128-gcm@openssh.com",
                                  b"aes256-gcm@openssh.com", b"aes128-ctr", b"aes192-ctr",
                                  b"aes256-ctr"))
"""Ciphers whose packets an ignore packet ahead of them protects in no way: AEAD, and
counter mode."""

_send_packet = SSHServerConnection.send_packet


def ignore_packet_needed(cipher: bytes) -> bool:
    """Whether packets sent with ``cipher`` (its SSH name) want an ignore packet ahead of
    them: those of CBC and of any cipher not known here do."""
    return cipher not in _SAFE_WITHOUT_IGNORE


def _send_packet_without_ignore(self: SSHServerConnection, pkttype: int, *args: bytes,
                                handler=None) -> None:
    if pkttype == MSG_IGNORE and not ignore_packet_needed(self._enc_alg_sc):
        # Only asyncssh's own ignore packets come here: nothing in this server sends one.
        return
    _send_packet(self, pkttype, *args, handler=handler)


def send_no_ignore_packets(on: bool = True) -> None:
    """Have the server's SSH connections send no ignore packet ahead of each packet when
    the agreed cipher does not want it (idempotent); ``on=False`` puts asyncssh's own
    sending back (a benchmark compares both)."""
    SSHServerConnection.send_packet = (  # type: ignore[method-assign]
        _send_packet_without_ignore if on else _send_packet)


__all__ = ["ignore_packet_needed", "send_no_ignore_packets"]
