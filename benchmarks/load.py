"""Load generator: real SSH clients playing at a real server, and what each seat costs.

Starts a game server in a process of its own (on 127.0.0.1, port 0, in a temporary data
folder; see :mod:`load_server`) and N SSH clients in this process (see :mod:`load_client`),
each with its own ed25519 key and an 80x24 pty, seated at tables of five with
``play tNN --seats 5``. They play like people (think 0.3-1.5 s, then ``c`` or ``l``; ``r``
for a rematch at the final scores) until every table has played G games or the time is up.

Joins come in two waves so that their cost is measured apart from play: first every seat
but the last of each table (tables waiting, nothing played), then the last seat of each
table, which starts its game. The play window runs from the end of the joins to the end
of the games. With ``--arrival in-order`` people come table after table instead, as a
crowd fills a lobby: each game starts as its table fills, while the tables before it
play; the joins' CPU is then not told apart from play's (those figures are left out),
and the reveal delays count from each seat's join, the joins' seconds included.

What it measures:

- join: from the start of the SSH connection to the first screen of the table;
- reveal to screen: from the server publishing a card (its table's reveal, timed in the
  server process) to the client's screen first showing that card in the round bar, for
  every seat and every card, on the system-wide monotonic clock both processes read; also
  by 10 s of the play window (the first also holding the cards turned during the last
  joins), which tells a backlog left by the games' beginning from a steady lateness;
- joins also by wave: at waiting tables, and the last seats, whose joins start the games;
  the slowest joins, with when each began and its parts (SSH's key exchange and login,
  the session's opening, the table's screen);
- how late the server's event loop ran, and this process's, by 10 s from the first join
  (a tick every 50 ms in each, on the system-wide clock): the server's running late is
  a server with no CPU to spare, this one's would be clients too slow to read;
- server CPU (``/proc/PID/stat``) per join (first wave), per join that starts a game (the
  second wave: the games' beginnings for every seat, and the first cards meanwhile) and per
  seat per reveal (play window: its CPU divided by the cards revealed in it times the
  people at each table), and the cycle collector's share of the joins' and of play's;
- frames (writes of a session to its channel, counted in the server: one per frame
  Textual flushes) and bytes (received by the clients) per seat per reveal;
- server memory (``/proc/PID/status``): idle, after the first wave, after all joins, peak;
- games completed, errors (clients' and the server's error log), this process's own CPU;
- the passes of the server's cycle collector by generation (count, time, longest pause,
  the collecting thread's CPU, and those made in threads other than the event loop's), and
  its checks of how much the memory has grown, frozen garbage in it (count, time, longest);
- the garbage frozen with the living by the end of the games: the memory (in blocks) that one
  sweep frees then, and that sweep's pause, as a long-running server makes one whenever
  that garbage has grown enough;
- what the database writes per reveal (a table's): the values it turns into JSON
  (snapshots, progress, records) and their characters;
- the stop: SIGTERM with every client still connected, until the server process exits.

With ``--attack N``, N abusive clients (see :class:`load_client.Attacker`: key flooders, an
in-band resize bomber, a client that never reads with a huge terminal, in turn) attack from
the end of the joins to the end of the games, and a fresh person connects to the lobby every
two seconds meanwhile; the reveal delays above are then the bystanders'. ``--attack 0``
makes the same fresh-join probes without attackers, for comparison.

With ``--app floor`` (or ``floor-parts``, ``floor-direct``) every session runs the
plain-text app of :mod:`floor_app` instead of the game's interface, at the same tables:
what a seat costs under the interface.

Run: ``python benchmarks/load.py --seats 25`` (``--json`` for JSON on stdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import platform
import random
import signal
import sys
import sysconfig
import time
from pathlib import Path

import diamant_server  # noqa: F401  (first: it silences asyncssh's DSA warnings)
import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
# This checkout's code, after what PYTHONPATH names (those entries follow the script's
# folder): ahead of them, it ran in place of the version PYTHONPATH asked for, which
# side_by_side.py gives each of the two versions it compares.
_GIVEN = {os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
sys.path.insert(max((i for i, p in enumerate(sys.path) if os.path.abspath(p) in _GIVEN),
                    default=0) + 1, str(Path(__file__).resolve().parent.parent))

import load_server  # noqa: E402
from diamant_server.ciphers import CIPHERS  # noqa: E402
from load_client import ATTACKS, Attacker, Person, fresh_join  # noqa: E402
from looplag import LagMeter  # noqa: E402
from procstat import cpu_seconds, memory_kib, own_cpu_seconds  # noqa: E402

TABLE_SIZE = 5
JOIN_TIMEOUT = 60.0
"""Seconds one client may take from connecting to seeing its table."""
STOP_TIMEOUT = 120.0
"""Seconds the server may take to stop after SIGTERM before it is killed."""
CLOSE_TIMEOUT = 10.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, required=True, help="SSH clients (people), 1-1000")
    parser.add_argument("--pace", type=float, default=0.1,
                        help="seconds between the steps of a reveal (default 0.1)")
    parser.add_argument("--think", type=_range, default=(0.3, 1.5), metavar="A-B",
                        help="think time in seconds before each key (default 0.3-1.5)")
    parser.add_argument("--games", type=int, default=1,
                        help="games each table plays, with rematches (default 1)")
    parser.add_argument("--duration", type=float, default=300.0,
                        help="most seconds of play after the joins (default 300)")
    parser.add_argument("--join-rate", type=float, default=20.0,
                        help="new connections per second (default 20)")
    parser.add_argument("--arrival", choices=("waves", "in-order"), default="waves",
                        help="how people come: waves (default), every seat but the last of "
                             "each table, then the last seats, whose joins start the "
                             "games, so that their cost is measured apart; or in-order, "
                             "table after table, each game starting as its table fills, "
                             "while the tables before play, as a crowd arriving fills a "
                             "lobby")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="run the server under cProfile and write its statistics to FILE")
    parser.add_argument("--attack", type=int, default=None, metavar="N",
                        help="mix N abusive clients into the play (0: only the fresh-join "
                        "probes, for comparison)")
    parser.add_argument("--screen", choices=("pyte", "light"), default="pyte",
                        help="how each client reads its screen: pyte, a whole terminal "
                             "emulator (default), or light, characters only, for more "
                             "clients than pyte leaves the machine room for")
    parser.add_argument("--cipher", default=None, metavar="NAME",
                        help="the only cipher the clients offer, such as "
                             "aes128-ctr (default: asyncssh's list, of which the server "
                             "takes aes256-gcm@openssh.com)")
    parser.add_argument("--app", choices=("game", *load_server.FLOOR_APPS), default="game",
                        help="what each session runs on the server: the game's interface "
                             "(default), floor, one widget of plain text, floor-parts, the "
                             "same text in a widget for each part, or floor-direct, those "
                             "widgets drawn as the game's are (see floor_app)")
    parser.add_argument("--json", action="store_true",
                        help="print the results as JSON on stdout (the table goes to stderr)")
    args = parser.parse_args(argv)
    if args.cipher is not None and args.cipher not in CIPHERS:
        parser.error(f"--cipher {args.cipher}: not a cipher the server offers; one of "
                     + ", ".join(CIPHERS))
    if not 1 <= args.seats <= 1000:
        parser.error(f"--seats {args.seats}: give between 1 and 1000 clients")
    if args.attack is not None and not 0 <= args.attack <= 100:
        parser.error(f"--attack {args.attack}: give between 0 and 100 abusive clients")
    if args.attack is not None and args.app != "game":
        # The attackers watch tables and the fresh joins open the lobby: the plain app
        # only takes a seat.
        parser.error(f"--attack needs the game's app: --app {args.app} only plays")
    if args.games < 1 or args.duration <= 0 or args.join_rate <= 0 or args.pace < 0:
        parser.error("--games, --duration and --join-rate must be more than 0, --pace not negative")
    return args


def _range(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        pair = (float(low), float(high if sep else low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds as A-B, e.g. 0.3-1.5") from None
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: A-B with 0 <= A <= B")
    return pair


def tables_for(seats: int) -> list[int]:
    """People per table: fives, the rest at one smaller table (3 seats at least; computer
    players fill the seats of a table of fewer than 3 people)."""
    sizes = [TABLE_SIZE] * (seats // TABLE_SIZE)
    if seats % TABLE_SIZE:
        sizes.append(seats % TABLE_SIZE)
    return sizes


DELAY_SLOT = 10.0
"""Seconds of the play window over which the reveal delays are also summed up apart, to
show whether the late ones came as the games began or all along."""


def python_build() -> dict[str, str | bool]:
    """The interpreter the server runs on (the server process is started with this
    one's): how it was built moves a seat's CPU by a tenth (README, *Which Python*)."""
    return {"version": platform.python_version(), "executable": sys.executable,
            "libpython_shared": libpython_shared()}


def libpython_shared() -> bool:
    """Whether this interpreter runs from a shared libpython, not from its executable.

    Read from the process's own memory map where there is one: ``sysconfig`` says how
    the standard library's build was configured, and Debian's ``python3.11`` says "shared"
    though its interpreter is linked into the executable."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return any("/libpython" in line for line in maps)
    except OSError:
        return bool(sysconfig.get_config_var("Py_ENABLE_SHARED"))


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """p50, p99 and max (nearest rank) of ``values``, and how many there were."""
    if not values:
        return {"n": 0, "p50": None, "p99": None, "max": None}
    ordered = sorted(values)

    def rank(p: float) -> float:
        return ordered[max(0, math.ceil(p * len(ordered)) - 1)]

    return {"n": len(ordered), "p50": rank(0.50), "p99": rank(0.99), "max": ordered[-1]}


class ServerProcess:
    """The game server's process and the pipe to it."""

    def __init__(self, options: dict) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=load_server.serve, args=(child, options),
                                       name="diamant-load-server", daemon=True)
        self.pid = 0
        self.port = 0
        self._child = child

    async def start(self) -> None:
        """Start the process and wait until the server listens."""
        self.process.start()
        self._child.close()
        ready = await self.receive("ready", 60.0)
        self.pid, self.port = ready["pid"], ready["port"]

    async def ask(self, request: str, timeout: float = 30.0) -> dict:
        """Send a request and wait for its answer."""
        self.conn.send(request)
        return await self.receive(request, timeout)

    async def receive(self, kind: str, timeout: float) -> dict:
        """Wait for the next message of ``kind`` (polling, so the event loop keeps running)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.conn.poll():
                message, body = self.conn.recv()
                if message == kind:
                    return body
                if message == "stopped":
                    raise RuntimeError(f"the server stopped early: {body}")
            else:
                await asyncio.sleep(0.01)
        raise TimeoutError(f"no {kind!r} from the server in {timeout:g} s")

    def cpu(self) -> float:
        """The server's CPU seconds so far."""
        return cpu_seconds(self.pid)

    def memory(self) -> dict[str, int]:
        """The server's resident memory now and at its peak, in KiB."""
        return memory_kib(self.pid)

    async def stop(self) -> dict:
        """SIGTERM, then wait for the process to report and exit; how long it took."""
        began = time.monotonic()
        os.kill(self.pid, signal.SIGTERM)
        try:
            stopped = await self.receive("stopped", STOP_TIMEOUT)
        except TimeoutError:
            stopped = {"error": f"no answer {STOP_TIMEOUT:g} s after SIGTERM; killed"}
            self.process.kill()
        await asyncio.get_running_loop().run_in_executor(None, self.process.join, STOP_TIMEOUT)
        stopped["signal_to_exit_s"] = time.monotonic() - began
        stopped["exit_code"] = self.process.exitcode
        return stopped


class Run:
    """One run of the load generator (see module docstring)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.sizes = tables_for(args.seats)
        self.people: list[Person] = []
        self.errors: list[str] = []
        self.stop_play = asyncio.Event()
        self.marks: dict[str, dict] = {}
        self.stop_attack = asyncio.Event()
        self.attackers = [Attacker(f"x{n + 1:02d}", ATTACKS[n % len(ATTACKS)],
                                   f"t{n % len(self.sizes) + 1:02d}")
                          for n in range(args.attack or 0)]
        self.fresh_joins: list[float] = []
        rng = random.Random(args.seed)
        for number, size in enumerate(self.sizes, start=1):
            table = f"t{number:02d}"
            bots = max(0, 3 - size)
            # --bots always given: older servers seated a computer player by default.
            command = f"play {table} --seats {size + bots} --bots {bots}"
            for seat in range(size):
                name = f"p{len(self.people) + 1:03d}"
                self.people.append(Person(
                    name, table, command, key=asyncssh.generate_private_key("ssh-ed25519"),
                    rng=random.Random(rng.random()), think=args.think, games=args.games,
                    light=args.screen == "light", cipher=args.cipher))
        self.table_people = {f"t{n:02d}": size for n, size in enumerate(self.sizes, start=1)}

    def mark(self, name: str, server: ServerProcess, snapshot: dict | None = None) -> None:
        """Note the counters at one moment of the run."""
        self.marks[name] = {
            "time": time.monotonic(), "server_cpu": server.cpu(), "own_cpu": own_cpu_seconds(),
            "memory": server.memory(), "server": snapshot or {},
            "client_bytes": sum(p.received_bytes for p in self.people),
            "client_chunks": sum(p.received_chunks for p in self.people),
        }

    async def join(self, people: list[Person], port: int) -> None:
        """Connect ``people`` at the join rate; each then plays until told to stop."""

        async def one(person: Person, delay: float) -> None:
            await asyncio.sleep(delay)
            try:
                await person.connect(port, JOIN_TIMEOUT)
            except Exception as exc:  # counted and reported; the run goes on
                self.errors.append(f"{person.name}: join failed: {type(exc).__name__}: {exc}"[:400])
                return
            self.playing.append(asyncio.create_task(self._play(person)))

        await asyncio.gather(*(one(p, i / self.args.join_rate) for i, p in enumerate(people)))

    async def _play(self, person: Person) -> None:
        try:
            await person.play(self.stop_play)
        except Exception as exc:
            self.errors.append(f"{person.name}: {type(exc).__name__}: {exc}"[:400])
        if person.error:
            self.errors.append(person.error)

    async def run(self) -> dict:
        """Start the server, join, play, stop; the results."""
        args = self.args
        began = time.monotonic()
        self.playing: list[asyncio.Task] = []
        # This process's own loop, second by second: a client late to read its screen
        # would make the server look slow.
        self.lateness = LagMeter(tick=load_server.LATENESS_TICK, by_second=True)
        self.lateness.start()
        with load_server.temporary_data_dir() as data_dir:
            options = {"pace": args.pace, "seats": args.seats, "data_dir": data_dir,
                       "extra": (args.attack or 0) * 2 + 5,
                       "profile": str(args.profile) if args.profile else None,
                       "app": args.app}
            server = ServerProcess(options)
            await server.start()
            await asyncio.sleep(1.0)  # let the server settle before reading its idle state
            self.mark("idle", server, await server.ask("snapshot"))
            if args.arrival == "waves":
                first, last = self._waves()
                await self.join(first, server.port)
                self.mark("waiting", server)
                await self.join(last, server.port)
            else:
                await self.join(self.people, server.port)
            self.mark("joined", server, await server.ask("snapshot"))
            attack = asyncio.create_task(self._attack(server.port))
            await self._wait_for_games()
            self.mark("played", server, await server.ask("snapshot"))
            self.stop_attack.set()
            await attack
            report = await server.ask("report")
            self.stop_play.set()
            await asyncio.gather(*self.playing)
            peak = server.memory()
            stopped = await server.stop()
            await asyncio.gather(*(p.close(CLOSE_TIMEOUT) for p in self.people))
        await self.lateness.stop()
        return self.results(report, stopped, peak, time.monotonic() - began)

    async def _attack(self, port: int) -> None:
        """With ``--attack``: the abusive clients, and a fresh person every two seconds."""
        if self.args.attack is None:
            return
        tasks = [asyncio.create_task(a.run(port, self.stop_attack)) for a in self.attackers]
        number = 0
        while not self.stop_attack.is_set():
            number += 1
            try:
                self.fresh_joins.append(await fresh_join(port, f"f{number:03d}"))
            except Exception as exc:
                self.errors.append(f"fresh join {number}: {type(exc).__name__}: {exc}"[:400])
            try:
                await asyncio.wait_for(self.stop_attack.wait(), 2.0)
            except TimeoutError:
                pass
        await asyncio.gather(*tasks)

    def _waves(self) -> tuple[list[Person], list[Person]]:
        """The people of the first wave of joins (tables waiting), and of the second
        (the last seat of each table, whose join starts its game)."""
        first = [p for i, p in enumerate(self.people) if not self._last_of_table(i)]
        return first, [p for i, p in enumerate(self.people) if self._last_of_table(i)]

    def _last_of_table(self, index: int) -> bool:
        person = self.people[index]
        return index + 1 == len(self.people) or self.people[index + 1].table != person.table

    async def _wait_for_games(self) -> None:
        end = time.monotonic() + self.args.duration
        while time.monotonic() < end:
            joined = [p for p in self.people if p.joined.is_set()]
            if all(p.done or p.closed.is_set() for p in joined):
                return
            await asyncio.sleep(0.2)

    def results(self, report: dict, stopped: dict, peak: dict, wall: float) -> dict:
        """Everything measured, as a dict for JSON."""
        args, marks = self.args, self.marks
        joined, played = marks["joined"], marks["played"]
        start, end = joined["server"]["time"], played["server"]["time"]
        reveals = [r for r in report["reveal_log"]]
        in_window = [r for r in reveals if start <= r[4] <= end]
        seat_reveals = sum(self.table_people[r[0]] for r in in_window)
        by_table: dict[str, list] = {}
        for r in reveals:
            by_table.setdefault(r[0], []).append(r)
        delays, missed = [], 0
        by_time: list[list[float]] = []  # delays by the reveal's time in the play window
        for person in self.people:
            if person.joined_at is None:
                continue
            for table, game, round_, card, at in by_table.get(person.table, []):
                if at > end or at < person.joined_at:
                    continue
                shown = person.seen.get((game, round_, card))
                if shown is None:
                    missed += 1
                else:
                    delays.append(shown - at)
                    slot = max(0, int((at - start) // DELAY_SLOT))
                    by_time.extend([] for _ in range(slot + 1 - len(by_time)))
                    by_time[slot].append(shown - at)

        def join_times(people) -> list[float]:
            return [p.joined_at - p.connect_at for p in people
                    if p.joined_at is not None and p.connect_at is not None]

        joins = join_times(self.people)
        first_join = min((p.connect_at for p in self.people if p.connect_at is not None),
                         default=start)
        waiting_people, starting = self._waves()
        waiting = len(waiting_people)
        # In order, the joins overlap play: their CPU is not theirs alone (None).
        waves = marks.get("waiting")
        join_cpu = waves["server_cpu"] - marks["idle"]["server_cpu"] if waves else None
        play_cpu = played["server_cpu"] - joined["server_cpu"]
        play_wall = played["time"] - joined["time"]
        own_play = played["own_cpu"] - joined["own_cpu"]
        idle_kib = marks["idle"]["memory"]["VmRSS"]
        mib = 1024.0

        def per_seat_reveal(value: float) -> float | None:
            return value / seat_reveals if seat_reveals else None

        server_errors = report["errors"] + stopped.get("errors_at_stop", 0)
        return {
            "config": {"seats": args.seats, "tables": len(self.sizes), "pace": args.pace,
                       "think": list(args.think), "games": args.games, "duration": args.duration,
                       "join_rate": args.join_rate, "arrival": args.arrival,
                       "seed": args.seed, "attack": args.attack,
                       "screen": args.screen, "cipher": args.cipher, "app": args.app},
            "python": python_build(),
            "join_s": percentiles(joins),
            # The slowest joins, each with when it began (seconds after the first), to
            # tell a moment that held several (a pause, a burst) from a slow kind of join.
            "slowest_joins_s": _slowest_joins(self.people),
            "join_by_wave_s": {"waiting": percentiles(join_times(waiting_people)),
                               "starting": percentiles(join_times(starting))},
            # How late each process's event loop ran, by DELAY_SLOT from the first join to
            # the end of the games: a join takes a score of turns of the server's loop.
            "loop_late_by_time_s": {
                "slot_s": DELAY_SLOT,
                **{who: _late_slots(seconds, first_join, end) for who, seconds in (
                    ("server", report["lateness"]),
                    ("load_generator", self.lateness.seconds))}},
            "reveal_to_screen_s": {**percentiles(delays), "missed": missed},
            "reveal_to_screen_by_time_s": {
                "slot_s": DELAY_SLOT,
                "slots": [{"from_s": DELAY_SLOT * n, **percentiles(slot)}
                          for n, slot in enumerate(by_time)]},
            "server_cpu": {
                "per_join_ms": 1000 * join_cpu / waiting if waves and waiting else None,
                "per_seat_per_reveal_ms": (1000 * per_seat_reveal(play_cpu)
                                           if seat_reveals else None),
                "join_wave_s": join_cpu,
                # The second wave: each join starts its table's game (every seat's screen
                # makes the cave), and the first cards come meanwhile.
                "per_starting_join_ms": (
                    1000 * (joined["server_cpu"] - waves["server_cpu"])
                    / len(starting) if waves and starting else None),
                "play_s": play_cpu,
                "play_core_share": play_cpu / play_wall if play_wall > 0 else None,
                # The cycle collector's share of it (its thread's CPU in its passes).
                "collector_share": {
                    "joins": _share(joined["server"]["collector_cpu"]
                                    - marks["idle"]["server"]["collector_cpu"],
                                    joined["server_cpu"] - marks["idle"]["server_cpu"]),
                    "play": _share(played["server"]["collector_cpu"]
                                   - joined["server"]["collector_cpu"], play_cpu)},
            },
            "frames_per_seat_per_reveal": per_seat_reveal(
                played["server"]["sends"] - joined["server"]["sends"]),
            "chunks_per_seat_per_reveal": per_seat_reveal(
                played["client_chunks"] - joined["client_chunks"]),
            "bytes_per_seat_per_reveal": per_seat_reveal(
                played["client_bytes"] - joined["client_bytes"]),
            "server_rss_mib": {
                "idle": idle_kib / mib,
                "after_waiting_joins": waves["memory"]["VmRSS"] / mib if waves else None,
                "after_joins": joined["memory"]["VmRSS"] / mib,
                "peak": peak["VmHWM"] / mib,
                "per_waiting_seat": ((waves["memory"]["VmRSS"] - idle_kib) / mib / waiting
                                     if waves and waiting else None),
                "per_seat_after_joins": (joined["memory"]["VmRSS"] - idle_kib) / mib / args.seats,
                "per_seat_peak": (peak["VmHWM"] - idle_kib) / mib / args.seats,
            },
            "database_per_reveal": {
                key: ((played["server"][key] - joined["server"][key]) / len(in_window)
                      if in_window else None)
                for key in ("db_values", "db_bytes")},
            "play_window_s": play_wall,
            "reveals": len(in_window),
            # Cards turned before the last join (by the tables that filled first).
            "reveals_during_joins": sum(r[4] < start for r in reveals),
            "seat_reveals": seat_reveals,
            "games_completed": report["games"],
            "games_expected": len(self.sizes) * args.games,
            "errors": {
                "count": len(self.errors) + server_errors,
                "clients": self.errors[:20],
                "server": server_errors,
                "server_messages": stopped.get("error_messages", [])[:20],
            },
            "load_generator_cpu": {
                "play_s": own_play,
                "play_core_share": own_play / play_wall if play_wall > 0 else None,
                "total_s": own_cpu_seconds(),
            },
            "collector": [{"generation": generation, "passes": int(passes), "total_s": total,
                           "longest_s": longest, "cpu_s": cpu,
                           "other_threads": {"passes": int(elsewhere), "total_s": elsewhere_s}}
                          for generation, (passes, total, longest, cpu, elsewhere, elsewhere_s)
                          in enumerate(report["collections"])],
            "collector_growth_checks": dict(zip(
                ("count", "total_s", "longest_s", "sweeps"), report["growth_checks"])),
            "garbage_at_end": report["garbage"],
            "stop": {k: v for k, v in stopped.items() if k not in ("error_messages",)},
            "attack": None if args.attack is None else {
                "attackers": [{"name": a.name, "kind": a.kind, "connections": a.connections,
                               "closed_by_server": a.closed_by_server,
                               "errors": a.errors[:3]} for a in self.attackers],
                "fresh_lobby_join_s": percentiles(self.fresh_joins),
            },
            "wall_s": wall,
        }


SLOWEST_SHOWN = 10
"""Joins listed in ``slowest_joins_s``."""


def _slowest_joins(people: list[Person]) -> list[dict[str, float]]:
    """The :data:`SLOWEST_SHOWN` longest joins: when each began (seconds after the first
    join began), how long it took, and its parts: SSH's key exchange and login
    (``ssh_s``), opening the session with its pty and command (``session_s``), and the
    table's screen from then on (``screen_s``)."""
    joined = [p for p in people if p.connect_at is not None and p.joined_at is not None]
    if not joined:
        return []
    first = min(p.connect_at for p in joined)
    slowest = sorted(joined, key=lambda p: p.joined_at - p.connect_at,
                     reverse=True)[:SLOWEST_SHOWN]
    return [{"began_s": p.connect_at - first, "took_s": p.joined_at - p.connect_at,
             "ssh_s": p.logged_in_at - p.connect_at, "session_s": p.opened_at - p.logged_in_at,
             "screen_s": p.joined_at - p.opened_at} for p in slowest]


def _late_slots(seconds: dict, start: float, end: float) -> list[dict[str, float | int]]:
    """A :class:`looplag.LagMeter`'s seconds gathered by :data:`DELAY_SLOT` from ``start``
    to ``end`` (monotonic clock): ticks, mean and worst lateness of each."""
    slots: list[list[float]] = []
    for second, (ticks, total, worst) in sorted(seconds.items()):
        if not start - 1 < int(second) <= end:
            continue
        index = max(0, int((int(second) - start) // DELAY_SLOT))
        slots.extend([0, 0.0, 0.0] for _ in range(index + 1 - len(slots)))
        slot = slots[index]
        slot[0] += ticks
        slot[1] += total
        slot[2] = max(slot[2], worst)
    return [{"from_s": DELAY_SLOT * n, "ticks": int(ticks),
             "mean": total / ticks if ticks else None, "max": worst}
            for n, (ticks, total, worst) in enumerate(slots)]


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole > 0 else None


def _fmt(value: float | int | None, scale: float = 1.0, digits: int = 1) -> str:
    return "—" if value is None else f"{value * scale:.{digits}f}"


def _garbage_text(garbage: dict, seats: int) -> str:
    freed = garbage["blocks_before"] - garbage["blocks_after"]
    return (f"{freed} of {garbage['blocks_before']} blocks freed ({freed // max(1, seats)} a seat)"
            f", a pause of {_fmt(garbage['sweep_s'], 1000, 0)} ms")


def _late_text(slots: list[dict]) -> str:
    return (" ".join(f"{_fmt(slot['mean'], 1000, 0)}/{_fmt(slot['max'], 1000, 0)}"
                     for slot in slots) + " ms (mean/worst, from the first join)"
            if slots else "—")


def table_text(r: dict) -> str:
    """The results as a small table for people."""
    c, j, d, cpu, m = (r["config"], r["join_s"], r["reveal_to_screen_s"], r["server_cpu"],
                       r["server_rss_mib"])
    own = r["load_generator_cpu"]
    rows = [
        ("seats / tables", f"{c['seats']} / {c['tables']} (pace {c['pace']:g} s, "
                           f"think {c['think'][0]:g}-{c['think'][1]:g} s, "
                           f"arrival {c['arrival']})"),
        ("server's Python", f"{r['python']['version']} ({r['python']['executable']}; "
                            + ("libpython shared" if r["python"]["libpython_shared"]
                               else "the interpreter in the executable") + ")"),
        ("join p50 / p99 / max", f"{_fmt(j['p50'], 1000, 0)} / {_fmt(j['p99'], 1000, 0)} / "
                                 f"{_fmt(j['max'], 1000, 0)} ms  (n={j['n']})"),
        ("  slowest, began after the first", ", ".join(
            f"{_fmt(j['took_s'], 1000, 0)} ms at {_fmt(j['began_s'], 1, 1)} s"
            for j in r["slowest_joins_s"][:5]) or "—"),
        ("  the slowest: SSH / session / screen", " / ".join(
            _fmt(r["slowest_joins_s"][0][part], 1000, 0) for part in
            ("ssh_s", "session_s", "screen_s")) + " ms" if r["slowest_joins_s"] else "—"),
        ("  waiting tables / starting games", " / ".join(
            f"{_fmt(r['join_by_wave_s'][w]['p99'], 1000, 0)}" for w in ("waiting", "starting"))
         + " ms (p99)"),
        ("reveal→screen p50 / p99 / max", f"{_fmt(d['p50'], 1000, 0)} / {_fmt(d['p99'], 1000, 0)}"
                                          f" / {_fmt(d['max'], 1000, 0)} ms  (n={d['n']}, "
                                          f"missed {d['missed']})"),
        (f"  p99 by {_fmt(r['reveal_to_screen_by_time_s']['slot_s'], 1, 0)} s of play",
         " ".join(_fmt(slot["p99"], 1000, 0) for slot in r["reveal_to_screen_by_time_s"]["slots"])
         + " ms"),
        (f"server's loop late by {_fmt(r['loop_late_by_time_s']['slot_s'], 1, 0)} s",
         _late_text(r["loop_late_by_time_s"]["server"])),
        ("  load generator's", _late_text(r["loop_late_by_time_s"]["load_generator"])),
        ("server CPU per join", f"{_fmt(cpu['per_join_ms'])} ms; per join that starts a "
                                f"game {_fmt(cpu['per_starting_join_ms'])} ms"),
        ("server CPU per seat per reveal", f"{_fmt(cpu['per_seat_per_reveal_ms'], 1, 2)} ms"),
        ("server CPU share in play", f"{_fmt(cpu['play_core_share'], 100, 0)} % of a core"),
        ("  the cycle collector's share", "{} % of the joins', {} % in play".format(
            _fmt(cpu["collector_share"]["joins"], 100, 1),
            _fmt(cpu["collector_share"]["play"], 100, 1))),
        ("frames per seat per reveal", _fmt(r["frames_per_seat_per_reveal"], 1, 2)
         + f"  (SSH data messages: {_fmt(r['chunks_per_seat_per_reveal'], 1, 2)})"),
        ("bytes per seat per reveal", _fmt(r["bytes_per_seat_per_reveal"], 1, 0)),
        ("server RSS idle / waiting / joined / peak",
         f"{m['idle']:.1f} / {_fmt(m['after_waiting_joins'])} / {m['after_joins']:.1f} / "
         f"{m['peak']:.1f} MiB"),
        ("server RSS per seat", f"waiting {_fmt(m['per_waiting_seat'], 1, 2)}, joined "
                                f"{m['per_seat_after_joins']:.2f}, peak {m['per_seat_peak']:.2f} MiB"),
        ("database per reveal (a table's)",
         f"{_fmt(r['database_per_reveal']['db_values'], 1, 1)} values written, "
         f"{_fmt(r['database_per_reveal']['db_bytes'], 1, 0)} characters of JSON"),
        ("play window", f"{r['play_window_s']:.1f} s, {r['reveals']} reveals, "
                        f"{r['seat_reveals']} seat-reveals"),
        ("games completed", f"{r['games_completed']} of {r['games_expected']}"),
        ("errors", f"{r['errors']['count']} (server {r['errors']['server']})"),
        ("server's cycle collector", ", ".join(
            f"gen{g['generation']} {g['passes']}x {_fmt(g['total_s'], 1000, 0)} ms "
            f"(longest {_fmt(g['longest_s'], 1000, 0)})" for g in r["collector"])),
        ("  its CPU; in other threads", ", ".join(
            f"gen{g['generation']} {_fmt(g['cpu_s'], 1000, 0)} ms; "
            f"{g['other_threads']['passes']}x {_fmt(g['other_threads']['total_s'], 1000, 0)} ms"
            for g in r["collector"])),
        ("  its checks of the memory's growth", "{}x {} ms (longest {}), {} sweeps".format(
            int(r["collector_growth_checks"]["count"]),
            _fmt(r["collector_growth_checks"]["total_s"], 1000, 0),
            _fmt(r["collector_growth_checks"]["longest_s"], 1000, 0),
            int(r["collector_growth_checks"]["sweeps"]))),
        ("  garbage at the end, a sweep", _garbage_text(r["garbage_at_end"], c["seats"])),
        ("load generator CPU in play", f"{_fmt(own['play_core_share'], 100, 0)} % of a core"),
        ("stop (SIGTERM → exit)", f"{_fmt(r['stop'].get('signal_to_exit_s'), 1, 2)} s "
                                  f"(server.stop {_fmt(r['stop'].get('seconds'), 1, 2)} s)"),
    ]
    attack = r.get("attack")
    if attack is not None:
        f = attack["fresh_lobby_join_s"]
        kinds = ", ".join(f"{a['kind']} ({a['connections']} connections, closed "
                          f"{a['closed_by_server']}x)" for a in attack["attackers"]) or "none"
        rows += [
            ("attackers", kinds),
            ("fresh lobby join p50 / p99 / max", f"{_fmt(f['p50'], 1000, 0)} / "
                                                 f"{_fmt(f['p99'], 1000, 0)} / "
                                                 f"{_fmt(f['max'], 1000, 0)} ms  (n={f['n']})"),
        ]
    width = max(len(name) for name, _ in rows)
    lines = [f"{name:<{width}}  {value}" for name, value in rows]
    for message in r["errors"]["clients"] + r["errors"]["server_messages"]:
        lines.append("  error: " + message.replace("\n", " | ")[:200])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the load and print the results; the exit status is 1 if anything failed."""
    args = parse_args(argv)
    results = asyncio.run(Run(args).run())
    text = table_text(results)
    if args.json:
        sys.stderr.write(text + "\n")
        sys.stdout.write(json.dumps(results, indent=2) + "\n")
    else:
        sys.stdout.write(text + "\n")
    if args.profile:
        from load_profile import summary

        sys.stderr.write(summary(args.profile) + "\n")
    failed = (results["errors"]["count"]
              or results["games_completed"] < results["games_expected"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
