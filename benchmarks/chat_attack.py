"""Chat flood at one table, measured from outside against a running ``diamant serve``.

A bystander (its own key) plays ``play NAME --seats 3 --bots 2`` and presses ``c`` on
each of its turns, and another does the same at another table; meanwhile
``--spectators`` clients (a key each) watch the first table and chat as fast as their
own allowance lets them (``--lines`` lines, then a pause of the allowance's window). A
table takes at most the server's ``--max-watchers`` spectators (20 by default): the
others are told so and stay in the lobby, where the same keys land (their Enter asks for
the table again), so past that number the flood is a crowd in the lobby.

It prints each bystander's delays from pressing ``c`` to seeing the next card, with and
without the flood (median, 90th percentile, worst), apart for the cards within a round
and for those that open the next one (a round's end pauses the table for its summary, six
times the pace, whatever the load), the time a fresh connection needs to reach the lobby
just before the flood and at five moments of it, how many spectators were let in, and,
when ``--pid`` names the server's process, its RSS and the CPU it used before and during
the flood.

The spectators run in a process of their own, at a lower priority (``nice``), so that
the bystanders' screens are read by a process that the crowd's own work cannot hold up:
on a real server the crowd's clients are on other machines. Each process prints the CPU
it used and how late its event loop ran at worst, so a reader can tell who was saturated.

Run: ``diamant serve --host 127.0.0.1 --port 2321 --data-dir DIR`` then
``python benchmarks/chat_attack.py --port 2321 --pid PID``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time

import diamant_server  # noqa: F401  (first: it silences asyncssh's DSA warnings)
import asyncssh
import pyte

from looplag import LagMeter
from procstat import cpu_seconds, memory_kib, own_cpu_seconds

TURN = re.compile(r"Round (\d+)/\d+ · card (\d+)")


class Screen(asyncssh.SSHClientSession):
    """A terminal that keeps what the server shows (pyte), or throws it away."""

    def __init__(self, keep: bool) -> None:
        self.screen = pyte.Screen(80, 24) if keep else None
        self.stream = pyte.ByteStream(self.screen) if keep else None
        self.changed = asyncio.Event()
        self.watching = False
        """Whether the table's screen ("You are watching") was seen."""
        self._tail = b""

    def data_received(self, data: bytes, datatype) -> None:
        if self.stream is not None:
            self.stream.feed(data)
        if not self.watching:
            seen = self._tail + data
            self.watching = b"You are watching" in seen
            self._tail = seen[-32:]
        self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen else ""

    async def wait_for(self, test, timeout: float = 60.0) -> str:
        end = time.monotonic() + timeout
        while not test(self.text):
            if time.monotonic() > end:
                raise TimeoutError(self.text)
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 0.2)
            except TimeoutError:
                pass
        return self.text


async def connect(port: int, name: str, command: str | None, keep: bool, source: int = 1):
    # Each spectator from an address of its own (127.0.1.N): the per-address limits on
    # connections are not what is measured here.
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  local_addr=(f"127.0.1.{source}", 0),
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                  agent_path=None)
    chan, session = await conn.create_session(lambda: Screen(keep), command, encoding=None,
                                              term_type="xterm-256color", term_size=(80, 24))
    return conn, chan, session


async def play(port: int, name: str, table: str, until: float,
               delays: list[tuple[float, float, bool]], source: int = 1) -> None:
    """A bystander: presses c at each turn and times the next card."""
    conn, chan, me = await connect(port, name, f"play {table} --seats 3 --bots 2", True,
                                   source=source)
    try:
        while time.monotonic() < until:
            text = await me.wait_for(lambda t: "Your turn" in t or "Final scores" in t)
            if "Final scores" in text:
                chan.write(b"r")
                await me.wait_for(lambda t: "Final scores" not in t)
                continue
            before = TURN.search(text)
            pressed = time.monotonic()
            chan.write(b"c")
            shown = await me.wait_for(lambda t: TURN.search(t) is not None
                                      and TURN.search(t)[0] != before[0] or "Final scores" in t)
            after = TURN.search(shown)
            same_round = after is not None and after[1] == before[1]
            delays.append((pressed, time.monotonic() - pressed, same_round))
    finally:
        conn.close()


async def chat(port: int, n: int, table: str, start: float, until: float, lines: int,
               window: float, sent: list[int], let_in: list[int]) -> None:
    conn, chan, me = await connect(port, f"spec{n}", f"watch {table}", False, source=n + 2)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    let_in[0] += me.watching
    try:
        while time.monotonic() < until:
            began = time.monotonic()
            for i in range(lines):
                chan.write(b"t")
                await asyncio.sleep(0.2)
                chan.write(f"spam {n} {i}\r".encode())
                sent[0] += 1
                await asyncio.sleep(0.2)
            await asyncio.sleep(max(0.0, window - (time.monotonic() - began)))
    finally:
        conn.close()


async def crowd(args) -> None:
    """The spectators' process: chat, then print what was sent and what it cost."""
    lag = LagMeter(tick=0.05)
    lag.start()
    cpu0 = own_cpu_seconds()
    sent = [0]
    let_in = [0]
    spectators = []
    for n in range(args.spectators):
        spectators.append(asyncio.create_task(
            chat(args.port, n, args.table, args.flood_from, args.until, args.lines,
                 args.window, sent, let_in)))
        await asyncio.sleep(0.1)
    await asyncio.sleep(max(0.0, args.flood_from - time.monotonic()))
    late_before, lag.worst = lag.worst, 0.0
    cpu1 = own_cpu_seconds()
    await asyncio.gather(*spectators, return_exceptions=True)
    await lag.stop()
    print(json.dumps({"sent": sent[0], "let_in": let_in[0],
                      "cpu_before": cpu1 - cpu0, "cpu_flood": own_cpu_seconds() - cpu1,
                      "lag": {"before": late_before, "flood": lag.worst}}))


async def fresh_join(port: int, source: int = 254) -> float:
    began = time.monotonic()
    conn, chan, me = await connect(port, f"fresh{source}", None, True, source=source)
    await me.wait_for(lambda t: "lobby" in t)
    conn.close()
    return time.monotonic() - began


def rss(pid: int | None) -> int | None:
    """The server's resident memory now, in MiB (None without its process id)."""
    return None if pid is None else memory_kib(pid)["VmRSS"] // 1024


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ranked = sorted(values)
    p90 = ranked[min(len(ranked) - 1, int(0.9 * len(ranked)))]
    return (f"n={len(values)} median {statistics.median(values):.2f} s, "
            f"p90 {p90:.2f} s, worst {max(values):.2f} s")


def cpu(pid: int | None) -> float | None:
    return None if pid is None else cpu_seconds(pid)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, help="the server's process, for its RSS")
    parser.add_argument("--spectators", type=int, default=60)
    parser.add_argument("--lines", type=int, default=5, help="lines per window per spectator")
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--quiet", type=float, default=10.0, help="seconds measured before")
    parser.add_argument("--flood", type=float, default=25.0, help="seconds of flood")
    parser.add_argument("--table", default="den")
    parser.add_argument("--crowd-nice", type=int, default=10,
                        help="the spectators' process's nice value")
    # The spectators' own process is this script run again with these.
    parser.add_argument("--role", choices=("measure", "crowd"), default="measure",
                        help=argparse.SUPPRESS)
    parser.add_argument("--flood-from", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--until", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.role == "crowd":
        await crowd(args)
        return
    delays: list[tuple[float, float, bool]] = []
    elsewhere: list[tuple[float, float, bool]] = []
    lag = LagMeter(tick=0.05)
    lag.start()
    now = time.monotonic()
    connect_for = 5 + args.spectators * 0.15
    flood_from = now + args.quiet + connect_for
    until = flood_from + args.flood
    rss_before = rss(args.pid)
    cpu_at = [(time.monotonic(), cpu(args.pid))]
    own_at = [own_cpu_seconds()]
    bystanders = [asyncio.create_task(play(args.port, "ann", args.table, until, delays)),
                  asyncio.create_task(play(args.port, "bea", f"{args.table}-2", until,
                                           elsewhere, source=252))]
    await asyncio.sleep(2)
    # CLOCK_MONOTONIC is the same clock in every process of the machine.
    crowd_process = await asyncio.create_subprocess_exec(
        "nice", "-n", str(args.crowd_nice), sys.executable, os.path.abspath(__file__),
        "--role", "crowd", "--port", str(args.port), "--spectators", str(args.spectators),
        "--lines", str(args.lines), "--window", str(args.window), "--table", args.table,
        "--flood-from", repr(flood_from), "--until", repr(until),
        stdout=asyncio.subprocess.PIPE)
    await asyncio.sleep(max(0.0, flood_from - 3 - time.monotonic()))
    join_before = await fresh_join(args.port, source=253)
    rss_crowd = rss(args.pid)
    await asyncio.sleep(max(0.0, flood_from - time.monotonic()))
    cpu_at.append((time.monotonic(), cpu(args.pid)))
    own_at.append(own_cpu_seconds())
    late_before, lag.worst = lag.worst, 0.0
    # Fresh connections at five moments of the flood: the spectators chat in bursts (a
    # line every 0.2 s, then a pause), so one moment alone could fall in a burst or not.
    joins = []
    for k in range(1, 6):
        await asyncio.sleep(max(0.0, flood_from + k * args.flood / 6 - time.monotonic()))
        joins.append(await fresh_join(args.port, source=240 + k))
    rss_during = rss(args.pid)
    out, _ = await crowd_process.communicate()
    crowd_said = json.loads(out.decode().strip().splitlines()[-1])
    cpu_at.append((time.monotonic(), cpu(args.pid)))
    own_at.append(own_cpu_seconds())
    await asyncio.gather(*bystanders, return_exceptions=True)
    await lag.stop()
    print(f"{args.spectators} spectators ({crowd_said['let_in']} let in, the others in the "
          f"lobby), {args.lines} lines per {args.window:g} s each, {args.flood:g} s of flood, "
          f"{crowd_said['sent']} lines sent")
    for who, times in (("bystander at the table", delays),
                       ("bystander at another table", elsewhere)):
        quiet = [d for t, d, same in times if t < flood_from and same]
        flood = [d for t, d, same in times if t >= flood_from and same]
        opening = [d for t, d, same in times if not same]
        print(f"{who}, c -> next card in the round, before the flood: {summary(quiet)}")
        print(f"{who}, c -> next card in the round, during the flood: {summary(flood)}")
        print(f"{who}, c -> first card of the next round (after its pause), before and "
              f"during: {summary(opening)}")
    print(f"fresh connection to the lobby: {join_before:.2f} s before the flood, "
          f"{', '.join(f'{join:.2f}' for join in joins)} s at five moments of it")
    if rss_before is not None:
        print(f"server RSS: {rss_before} MiB before the crowd, {rss_crowd} MiB with it "
              f"before the flood, {rss_during} MiB during the flood")
        (start, c0), (flood, c1), (end, c2) = cpu_at
        print(f"server CPU: {100 * (c1 - c0) / (flood - start):.0f} % of a core before "
              f"the flood (spectators joining), {100 * (c2 - c1) / (end - flood):.0f} % "
              "during it")
    (start, _), (flood, _), (end, _) = cpu_at
    print(f"bystanders' process: CPU {100 * (own_at[1] - own_at[0]) / (flood - start):.0f} % "
          f"before the flood, {100 * (own_at[2] - own_at[1]) / (end - flood):.0f} % during; "
          f"its loop late by at most {late_before:.2f} s before, "
          f"{lag.worst:.2f} s during")
    print(f"crowd's process (nice {args.crowd_nice}): CPU "
          f"{crowd_said['cpu_before']:.1f} s joining, {crowd_said['cpu_flood']:.1f} s in the "
          f"flood ({100 * crowd_said['cpu_flood'] / (end - flood):.0f} %); its loop late by "
          f"at most {crowd_said['lag']['before']:.2f} s before, "
          f"{crowd_said['lag']['flood']:.2f} s during")


if __name__ == "__main__":
    asyncio.run(main())
