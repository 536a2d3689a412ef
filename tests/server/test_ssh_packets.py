"""What goes over the wire for a frame: one SSH packet, with no ignore packet ahead of it."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from asyncssh.channel import SSHChannel, SSHClientChannel
from asyncssh.connection import SSHClientConnection, SSHConnection
from asyncssh.constants import MSG_CHANNEL_DATA, MSG_IGNORE, MSG_KEXINIT

from diamant_server.ciphers import CIPHERS
from diamant_server.ignore_packets import ignore_packet_needed


@pytest.fixture
def received(monkeypatch) -> dict[int, int]:
    """Packets the test's SSH clients received, by type (ignore, key exchange, channel
    data)."""
    counts = {MSG_IGNORE: 0, MSG_KEXINIT: 0, MSG_CHANNEL_DATA: 0}

    def count(handlers: dict, kind: int, client: type) -> None:
        handle = handlers[kind]

        def counted(receiver, pkttype, pktid, packet):
            if isinstance(receiver, client):
                counts[kind] += 1
            return handle(receiver, pkttype, pktid, packet)

        monkeypatch.setitem(handlers, kind, counted)

    count(SSHConnection._packet_handlers, MSG_IGNORE, SSHClientConnection)
    count(SSHConnection._packet_handlers, MSG_KEXINIT, SSHClientConnection)
    count(SSHChannel._packet_handlers, MSG_CHANNEL_DATA, SSHClientChannel)
    return counts


@pytest.mark.parametrize("cipher", ["aes128-gcm@openssh.com", "aes256-ctr"])
async def test_frames_go_out_without_an_ignore_packet_ahead_of_each(server, players, make_key,
                                                                    received, cipher):
    """asyncssh sent an empty SSH_MSG_IGNORE ahead of every packet: two packets, two
    encryptions and two writes for every frame. With the ciphers the server offers it
    protects nothing, and it is not sent."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 2",
                      ssh_options={"encryption_algs": [cipher]})
    assert ann.conn.get_extra_info("recv_cipher") == cipher
    await ann.wait_for("Your turn")
    await ann.press_until("c", lambda text: "card 3" in text)
    # The join's screen, the cards and the person's own choices: frames enough.
    assert received[MSG_CHANNEL_DATA] >= 3, received
    assert received[MSG_IGNORE] == 0, received


def test_an_ignore_packet_still_goes_ahead_of_packets_sent_in_cbc_mode():
    """The countermeasure RFC 4251 gives for CBC is kept for CBC (the server offers none),
    and for any cipher not known to take nothing from it."""
    for cipher in (b"aes128-cbc", b"aes256-cbc", b"3des-cbc", b"blowfish-cbc", b"arcfour",
                   b"", b"a-cipher-of-tomorrow"):
        assert ignore_packet_needed(cipher), cipher
    # What the server offers needs none (a cipher added to the offer would be sent with
    # ignore packets until it is looked at and listed).
    for cipher in CIPHERS:
        assert not ignore_packet_needed(cipher.encode()), cipher


async def test_a_session_plays_on_across_a_new_key_exchange(server, players, make_key, received):
    """Keys exchanged again halfway (the client asks after a second): the game goes on, and
    no ignore packet comes after the new keys either."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 2",
                      ssh_options={"rekey_seconds": 1})
    await ann.wait_for("Your turn")
    assert received[MSG_KEXINIT] == 1, received
    await asyncio.sleep(1.5)  # the client's next packet starts a new key exchange
    await ann.press_until("c", lambda text: "card 2" in text)
    await ann.press_until("c", lambda text: "card 4" in text)
    assert received[MSG_KEXINIT] >= 2, received  # the server answered a new exchange
    assert received[MSG_IGNORE] == 0, received


async def test_a_client_with_its_own_preferences_gets_aes_not_chacha20(server, players, make_key):
    """asyncssh's client, like OpenSSH's, puts ChaCha20-Poly1305 first, and the client's
    order decides: the server does not offer it (five times the CPU of AES-GCM a packet
    here), so the connection is made with AES-GCM, both ways."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 2")
    for direction in ("send_cipher", "recv_cipher"):
        assert ann.conn.get_extra_info(direction) == "aes256-gcm@openssh.com", direction
    await ann.wait_for("Your turn")


async def test_a_client_that_offers_only_chacha20_is_told_there_is_no_common_cipher(
        server, players, make_key):
    """A client configured for ChaCha20-Poly1305 alone is refused in the key exchange, and
    its error names the encryption as what the two could not agree on (OpenSSH says "no
    matching cipher found"); the server serves the next client as before."""
    ann = players("ann")
    with pytest.raises(asyncssh.KeyExchangeFailed, match="encryption"):
        await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 2",
                          ssh_options={"encryption_algs": ["chacha20-poly1305@openssh.com"]})
    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 2")
    await bob.wait_for("Your turn")
