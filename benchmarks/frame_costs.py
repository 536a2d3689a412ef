"""What one frame of the table screen costs, by kind of change, headless.

A seat's CPU per reveal is (frames per reveal) × (CPU per frame) plus the handling of the
table's updates. This measures the second factor for each kind of change a game makes,
on one app showing a real game in the middle of a round: nothing changed (the floor of a
turn of the app's loop), the decision timer's words, one line of the player list (someone
decided), a CSS class toggled (a button becoming idle), a whole view (a reveal), a
full repaint with a new layout, the round summary shown and closed, the person's chat
box opened and closed, a toast shown and gone, and the final scores shown and a rematch
begun.

Each change is made ``--repeat`` times; the figure is the process CPU per change, from
the change until the app has sent its frame and is idle again, minus nothing (the floor
is printed so that a reader can subtract it).

Run: ``python benchmarks/frame_costs.py [--repeat 200] [--size 80x24] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from ui_helpers import FrameCounter  # noqa: E402

from diamant_tui.table import Table, TableSettings, TableStatus  # noqa: E402
from diamant_tui.ui import DiamantApp  # noqa: E402
from diamant_tui.ui.widgets.decision import DecisionPanel  # noqa: E402
from diamant_tui.ui.widgets.players import PlayerList  # noqa: E402
from diamant_tui.engine.view import Decision, Phase  # noqa: E402


def size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


async def measure(args) -> dict[str, dict[str, float]]:
    """CPU (ms) and frames per change, for each kind of change."""
    table = Table(TableSettings(name="bench", seats=5, bots=("cards:9",) * 4, pace=0.0,
                                seed=args.seed))
    member = table.sit("ann", "ann")
    app = DiamantApp(lang=args.lang, member=member)
    figures: dict[str, dict[str, float]] = {}
    async with app.run_test(size=args.size, notifications=True) as pilot:
        # Into the second round's cave (a round summed up), until a few cards lie on the path.
        for _ in range(2000):
            await pilot.pause()
            view = getattr(app.screen, "view", None)
            if view is not None and view.decision_due and view.my_decision is None:
                if view.round >= 2 and view.step >= 4:
                    break
                await pilot.press("c" if view.round >= 2 or view.step < 2 else "l")
            await asyncio.sleep(0.01)
        if table.status is not TableStatus.PLAYING:
            raise RuntimeError("the game did not start")
        screen = app.screen
        view = screen.view
        counter = FrameCounter(app)

        async def run(name: str, change) -> None:
            await pilot.pause()
            counter.reset()
            start = time.process_time()
            for i in range(args.repeat):
                done = change(i)
                if inspect.isawaitable(done):
                    await done  # (the game's end: the final scores made the first time)
                await pilot.pause()
            cpu = time.process_time() - start
            figures[name] = {"cpu_ms": 1000 * cpu / args.repeat,
                             "frames": counter.frames / args.repeat,
                             "bytes": counter.bytes / args.repeat}

        players = screen.query_one(PlayerList)
        decision = screen.query_one(DecisionPanel)
        button = decision.query_one("#continue")
        first_state = players.state

        def nothing(i: int) -> None:
            pass

        def timer_text(i: int) -> None:
            decision._show_timer(f"{i % 60:2d} s", urgent=False)  # as the panel's ticker does

        def decided_mark(i: int) -> None:
            # Another player's "decided" mark comes and goes: one line of the list.
            others = [p for p in view.players if p.seat != view.seat]
            seat = others[i % len(others)].seat
            marked = tuple(replace(p, decided=(p.seat == seat)) for p in view.players)
            players.state = replace(first_state, view=replace(view, players=marked))

        def class_toggle(i: int) -> None:
            button.set_class(i % 2 == 0, "-chosen")

        def whole_view(i: int) -> None:
            # The whole table's state as a reveal delivers it (another object each time).
            screen._show_view(replace(view, step=view.step + i % 2), screen.update_)

        def full_repaint(i: int) -> None:
            app.refresh(repaint=True, layout=True)

        await run("nothing", nothing)
        await run("timer text", timer_text)
        await run("decided mark", decided_mark)
        await run("class toggle", class_toggle)
        await run("whole view", whole_view)
        await run("full repaint", full_repaint)

        async def run_pair(name: str, there, gone) -> None:
            """Shown and gone in turn (each a change); the figure is for the pair."""
            await run(name, lambda i: there(i) if i % 2 == 0 else gone())
            figures[name] = {key: 2 * value for key, value in figures[name].items()}

        await run_pair("round summary shown + closed",
                       lambda i: screen._show_summary(view), screen._close_summary)
        # A person's own chat box, opened (t) and closed with an empty line (Enter).
        await run_pair("chat box opened + closed", lambda i: screen.action_chat(),
                       lambda: screen.send_chat(""))
        # A toast (a refusal, another's chat line) shown, then gone.
        await run_pair("toast shown + gone",
                       lambda i: app.notify(f"A note, number {i}", timeout=60),
                       app.clear_notifications)
        # The game's end (its final scores) and a rematch beginning, as the table's
        # updates bring them.
        over = replace(view, phase=Phase.OVER, decision_due=False,
                       scores=tuple(p.chest or 0 for p in view.players), winners=(view.seat,))
        finished = replace(screen.update_, status=TableStatus.FINISHED, view=over)
        playing = screen.update_
        await run_pair("final scores shown + rematch",
                       lambda i: screen._finish_if_over(over, finished),
                       lambda: screen._begin_if_rematch(playing))
        member.decide(Decision.LEAVE)
    await table.close()
    return figures


def main() -> None:
    """Print the CPU and frames of each kind of change."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--size", type=size, default=(80, 24), help="terminal size, WxH")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(f"size {args.size[0]}x{args.size[1]}, {args.repeat} changes of each kind")
    print(f"{'change':28} {'cpu ms':>8} {'frames':>7} {'bytes':>7}")
    for name, row in figures.items():
        print(f"{name:28} {row['cpu_ms']:8.2f} {row['frames']:7.2f} {row['bytes']:7.0f}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
