"""What sending one frame costs the server in the SSH layer, by cipher, with and without
asyncssh's empty ignore packet ahead of each packet (:mod:`diamant_server.ignore_packets`).

A real asyncssh server and client on 127.0.0.1 in this process; the server's session
writes ``--frames`` frames of ``--size`` bytes (a frame of the table screen is about 3 KB),
one at a time, each once the client has read the one before. The figure is the CPU of
the server's ``write`` alone (the packet made, encrypted and written to the socket, all
done within the call), in µs per frame, with the SSH packets the client received per
frame.

Run: ``python benchmarks/ssh_frame_cost.py [--frames 3000] [--size 3000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import diamant_server  # noqa: F401  (first: it silences asyncssh's DSA warnings)
import asyncssh
from asyncssh.connection import SSHClientConnection, SSHConnection
from asyncssh.constants import MSG_IGNORE

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from diamant_server.ignore_packets import send_no_ignore_packets  # noqa: E402

CIPHERS = ("chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com", "aes128-ctr")


class _Server(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return False  # anyone may log in: loopback only


async def _measure(cipher: str, frames: int, size: int) -> tuple[float, float]:
    """Server CPU per frame written (µs) and packets the client got per frame."""
    cpu: list[int] = []
    got = asyncio.Event()
    received = {"packets": 0}
    frame = b"x" * size

    async def session(process: asyncssh.SSHServerProcess) -> None:
        for _ in range(frames):
            got.clear()
            start = time.thread_time_ns()
            process.stdout.write(frame)
            cpu.append(time.thread_time_ns() - start)
            await got.wait()
        process.exit(0)

    handlers = SSHConnection._packet_handlers
    handle_ignore = handlers[MSG_IGNORE]

    def counted_ignore(conn, pkttype, pktid, packet):
        if isinstance(conn, SSHClientConnection):
            received["packets"] += 1
        return handle_ignore(conn, pkttype, pktid, packet)

    handlers[MSG_IGNORE] = counted_ignore
    key = asyncssh.generate_private_key("ssh-ed25519")
    server = await asyncssh.create_server(_Server, "127.0.0.1", 0, server_host_keys=[key],
                                          process_factory=session, encoding=None)
    port = server.sockets[0].getsockname()[1]
    try:
        async with asyncssh.connect("127.0.0.1", port, username="bench", known_hosts=None,
                                    encryption_algs=[cipher]) as conn:

            class Reader(asyncssh.SSHClientSession):
                """Counts the data packets and tells the server when a frame is in."""

                def __init__(self) -> None:
                    self.seen = 0

                def data_received(self, data: bytes, datatype) -> None:
                    received["packets"] += 1
                    self.seen += len(data)
                    if self.seen >= size:
                        self.seen -= size
                        got.set()

            chan, _ = await conn.create_session(Reader, encoding=None)
            await chan.wait_closed()
    finally:
        handlers[MSG_IGNORE] = handle_ignore
        server.close()
        await server.wait_closed()
    return statistics.mean(cpu) / 1000, received["packets"] / frames


def main() -> None:
    """Print the server's CPU per frame in the SSH layer, by cipher, both ways."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--size", type=int, default=3000, help="bytes a frame")
    args = parser.parse_args()
    print(f"{args.frames} frames of {args.size} bytes; server CPU per frame written")
    print(f"{'cipher':32} {'ignore packets':>15} {'µs a frame':>11} {'packets':>8}")
    for cipher in CIPHERS:
        for ignored in (True, False):
            send_no_ignore_packets(on=not ignored)
            micros, packets = asyncio.run(_measure(cipher, args.frames, args.size))
            print(f"{cipher:32} {'sent' if ignored else 'not sent':>15} {micros:11.1f} "
                  f"{packets:8.2f}")
    send_no_ignore_packets(on=False)


if __name__ == "__main__":
    main()
