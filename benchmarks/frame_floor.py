"""What a frame costs in Textual itself, with nothing of this project's drawing in it.

The table screen costs about 8 ms of CPU per frame (``bench_frames.py``: CPU per seat
per reveal divided by frames per seat per reveal). This measures the floor under that
figure, on screens whose widgets only hand back lines drawn beforehand (so that no time
goes into drawing them), headless, each frame written out as escape sequences as a
terminal would get it:

- ``one widget``: the whole 80x24 screen is one widget; N of its lines change per frame
  (what a table screen drawn by a single widget from shared lines would cost);
- ``twenty widgets``: four columns of five widgets, like the table screen's parts; N of
  them change per frame (the cost of Textual's compositor and its per-widget styling);
- ``twenty widgets, as strips``: the same, but the changed widgets make their lines
  anew each time, straight from styled segments (``render_lines``);
- ``twenty widgets, drawn``: the same, but the changed widgets draw their text anew
  each time through ``render()`` (Rich text turned into lines by Textual, as most
  widgets do).

Each figure is process CPU per change, less what the same loop costs when nothing
changes, and the frames the app sent per change.

Run: ``python benchmarks/frame_floor.py [--frames 300] [--size 80x24] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from rich.segment import Segment  # noqa: E402
from rich.style import Style  # noqa: E402
from rich.text import Text  # noqa: E402
from textual.app import App  # noqa: E402
from textual.containers import Horizontal, Vertical  # noqa: E402
from textual.geometry import Region  # noqa: E402
from textual.strip import Strip  # noqa: E402
from textual.widget import Widget  # noqa: E402
from ui_helpers import FrameCounter  # noqa: E402

from bench_frames import size  # noqa: E402  (WxH on the command line)

TICK = 0.02
"""Seconds between changes: longer than Textual's frame interval (1/60 s), so that
every change is a frame of its own."""
STYLES = [Style(color=c, bgcolor="black", bold=i % 2 == 0)
          for i, c in enumerate(("red", "green", "yellow", "blue", "white"))]
KINDS = 7
"""Different drawings each line or widget cycles through (all drawn beforehand)."""


def drawn_line(key: tuple, width: int, version: int, cache: dict) -> Strip:
    """A line of eight coloured runs, drawn once per (key, version) and kept."""
    found = cache.get((key, width, version % KINDS))
    if found is None:
        run = max(1, width // 8)
        segments = [Segment(str((hash(key) + version + i) % 10) * run, STYLES[(i + version) % 5])
                    for i in range(8)]
        found = cache[(key, width, version % KINDS)] = Strip(segments).adjust_cell_length(width)
    return found


class Canvas(Widget):
    """The whole screen as one widget whose lines are kept ready."""

    DEFAULT_CSS = "Canvas { width: 1fr; height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.versions: dict[int, int] = {}
        self.cache: dict = {}

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.size.width
        return [drawn_line(("canvas", y), width, self.versions.get(y, 0), self.cache)
                .crop(crop.x, crop.right) for y in range(crop.y, crop.bottom)]

    def change(self, first: int, count: int) -> None:
        """Give ``count`` lines from ``first`` another drawing, and redraw only them."""
        for y in range(first, first + count):
            y %= max(1, self.size.height)
            self.versions[y] = self.versions.get(y, 0) + 1
            self.refresh(Region(0, y, self.size.width, 1))


class Part(Widget):
    """One of twenty widgets: hands back kept lines (``kept``), makes them anew from
    styled segments (``strips``) or draws its text through ``render()`` (``drawn``)."""

    DEFAULT_CSS = "Part { width: 1fr; height: 1fr; }"

    def __init__(self, index: int, how: str, cache: dict) -> None:
        super().__init__()
        self.index, self.how, self.cache, self.version = index, how, cache, 0

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.how == "drawn":
            return super().render_lines(crop)
        width = self.size.width
        if self.how == "strips":
            return [Strip([Segment(f"{(self.index + y + self.version + i) % 10}" * 3,
                                   STYLES[(i + self.version) % 5]) for i in range(4)])
                    .adjust_cell_length(width).crop(crop.x, crop.right)
                    for y in range(crop.y, crop.bottom)]
        return [drawn_line((self.index, y), width, self.version, self.cache)
                .crop(crop.x, crop.right) for y in range(crop.y, crop.bottom)]

    def render(self) -> Text:
        text = Text()
        for y in range(self.size.height):
            for i in range(4):
                text.append(f"{(self.index + y + self.version + i) % 10}" * 3,
                            STYLES[(i + self.version) % 5])
            text.append("\n")
        return text

    def change(self) -> None:
        """Show the next drawing."""
        self.version += 1
        self.refresh()


class OneWidget(App):
    """A screen that is one :class:`Canvas`."""

    def compose(self):
        yield Canvas()


class TwentyWidgets(App):
    """Four columns of five :class:`Part`, each drawing as ``how`` says."""

    def __init__(self, how: str) -> None:
        super().__init__()
        self.how = how

    def compose(self):
        cache: dict = {}
        with Horizontal():
            for column in range(4):
                with Vertical():
                    for row in range(5):
                        yield Part(column * 5 + row, self.how, cache)


async def per_frame(app: App, change, frames: int, size: tuple[int, int]) -> tuple[float, float]:
    """(CPU ms per change above the idle loop, frames sent per change) for ``change(i)``.

    Changes that come faster than the app can draw are merged into one frame (frames
    per change under 1): the CPU is then that of fewer, larger frames."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        counter = FrameCounter(app)
        for i in range(KINDS * 2):  # every drawing made once before measuring
            change(i)
            await asyncio.sleep(TICK)
        await pilot.pause()
        counter.reset()
        start = time.process_time()
        for i in range(frames):
            change(i)
            await asyncio.sleep(TICK)
        busy = time.process_time() - start
        await pilot.pause()
        sent = counter.frames
        start = time.process_time()
        for _ in range(frames):
            await asyncio.sleep(TICK)
        idle = time.process_time() - start
    return 1000 * (busy - idle) / frames, sent / frames


async def measure(frames: int, size: tuple[int, int]) -> dict[str, dict[str, float]]:
    """Every case's CPU per frame and frames per change."""
    results: dict[str, dict[str, float]] = {}
    for lines in (1, 6, size[1]):
        app = OneWidget()

        def change(i: int, app=app, lines=lines) -> None:
            app.query_one(Canvas).change(i, lines)

        ms, sent = await per_frame(app, change, frames, size)
        results[f"one widget, {lines} lines changed"] = {"cpu_ms": ms, "frames": sent}
    for how in ("kept", "strips", "drawn"):
        for count in (1, 5, 20):
            app = TwentyWidgets(how)

            def change(i: int, app=app, count=count) -> None:
                parts = list(app.query(Part))
                for j in range(count):
                    parts[(i * 7 + j * 3) % len(parts)].change()

            ms, sent = await per_frame(app, change, frames, size)
            label = {"kept": "", "strips": ", as strips", "drawn": ", drawn"}[how]
            name = f"twenty widgets{label}, {count} changed"
            results[name] = {"cpu_ms": ms, "frames": sent}
    return results


def main() -> None:
    """Print CPU and frames per change for each case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="changes measured per case")
    parser.add_argument("--size", type=size, default=(80, 24), help="terminal size, WxH")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    results = asyncio.run(measure(args.frames, args.size))
    print(f"size {args.size[0]}x{args.size[1]}, {args.frames} changes per case")
    print(f"{'case':40} {'cpu ms/change':>13} {'frames':>7}")
    for name, got in results.items():
        print(f"{name:40} {got['cpu_ms']:13.2f} {got['frames']:7.2f}")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
