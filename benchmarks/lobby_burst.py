"""A crowd in the lobby asking for a table that takes nobody more, all at the same moment.

A player sits at table ``den`` (``play den --seats 3 --bots 2``) and one spectator watches
it; ``--crowd`` sessions (a key and an address each) wait in the lobby, then all press
Enter on ``den`` at once, ``--repeat`` times, each time after the refusals have gone from
their screens. It prints, for each burst, how long until every one of them read the
refusal, the server CPU the burst cost (and per session), and the CPU of the quiet
seconds after it (the refusals going away).

Run: ``diamant serve --host 127.0.0.1 --port 2321 --data-dir DIR --max-watchers 1
--max-per-address 100 --connect-burst 100 --connect-rate 100`` then
``python benchmarks/lobby_burst.py --port 2321 --pid PID``.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from chat_attack import connect, cpu

REFUSED = "as many spectators"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process")
    parser.add_argument("--crowd", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    player = await connect(args.port, "ann", "play den --seats 3 --bots 2", True)
    await player[2].wait_for(lambda text: "Your turn" in text)
    watcher = await connect(args.port, "w", "watch den", False, source=2)
    crowd = [await connect(args.port, f"l{n}", None, True, source=10 + n)
             for n in range(args.crowd)]
    for _, _, screen in crowd:
        await screen.wait_for(lambda text: "den" in text and "lobby" in text)
    await asyncio.sleep(2)
    try:
        for burst in range(args.repeat):
            began, used = time.monotonic(), cpu(args.pid)
            for _, channel, _ in crowd:
                channel.write(b"\r")
            for _, _, screen in crowd:
                await screen.wait_for(lambda text: REFUSED in " ".join(text.split()))
            told = time.monotonic() - began
            await asyncio.sleep(1)
            burst_cpu = cpu(args.pid) - used
            print(f"burst {burst + 1}: all {args.crowd} told in {told:.2f} s; server CPU "
                  f"{1000 * burst_cpu:.0f} ms ({1000 * burst_cpu / args.crowd:.1f} ms each)")
            used = cpu(args.pid)
            await asyncio.sleep(9)  # the refusals go from the screens
            print(f"  the next 9 s: {1000 * (cpu(args.pid) - used):.0f} ms")
    finally:
        for conn, _, _ in (*crowd, watcher, player):
            conn.close()


if __name__ == "__main__":
    asyncio.run(main())
