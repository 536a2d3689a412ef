"""Where the server's time went: a cProfile file grouped by the part of the code.

``python benchmarks/load.py --seats 10 --profile server.prof`` writes the statistics;
``python benchmarks/load_profile.py server.prof`` prints them again. Self time (time spent
in a function itself, not in what it calls) is summed per group: Textual's CSS, Textual's
and Rich's rendering, the SSH layer, the event loop, this project's interface, transport,
table and engine. The largest cumulative and self-time entries follow.
"""

from __future__ import annotations

import pstats
import sys
from pathlib import Path

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("CSS (textual/css)", ("/textual/css/",)),
    ("rendering (Textual, Rich)", ("/textual/", "/rich/")),
    ("SSH layer (asyncssh, cryptography)", ("/asyncssh/", "/cryptography/", "_cffi", "nacl")),
    ("event loop (asyncio, selectors)", ("/asyncio/", "selectors.py", "socket.py")),
    ("interface (diamant_tui/ui, i18n)", ("/diamant_tui/ui/", "/diamant_tui/i18n/")),
    ("table and engine (diamant_tui)", ("/diamant_tui/",)),
    ("transport (server/)", ("/server/",)),
    ("measuring (benchmarks/)", ("/benchmarks/",)),
    ("Python's standard library (re, enum, weakref...)", ("/lib/python3",)),
)
TOP = 25


def group_of(filename: str) -> str:
    """The group a function's file belongs to (the first that matches)."""
    path = filename.replace("\\", "/")
    for name, marks in GROUPS:
        if any(mark in path for mark in marks):
            return name
    if path.startswith("<") or path == "~":
        return "built-ins (C functions, not attributed)"
    return "other Python"


def is_idle(function: tuple[str, int, str]) -> bool:
    """The event loop waiting for something to happen: time, not work."""
    return function[0] == "~" and function[2].startswith("<method 'poll' of 'select.")


def grouped(table: dict) -> dict[str, float]:
    """Self time per group. A built-in (C) function's time goes to the groups of the
    functions that called it, in proportion to the time each call site spent in it."""
    groups: dict[str, float] = {}
    for function, (_cc, _nc, tottime, _ct, callers) in table.items():
        if is_idle(function):
            continue
        if function[0] == "~" and callers:
            for caller, caller_stats in callers.items():
                group = group_of(caller[0]) if caller[0] != "~" else "built-ins called by built-ins"
                groups[group] = groups.get(group, 0.0) + caller_stats[2]
        else:
            group = group_of(function[0])
            groups[group] = groups.get(group, 0.0) + tottime
    return groups


def summary(path: Path | str, top: int = TOP) -> str:
    """Self time per group, then the ``top`` entries by cumulative and by self time
    (percentages of the busy time: the time not spent waiting in ``epoll``)."""
    stats = pstats.Stats(str(path))
    table = stats.stats  # type: ignore[attr-defined]
    idle = sum(entry[2] for function, entry in table.items() if is_idle(function))
    total = sum(entry[2] for function, entry in table.items() if not is_idle(function)) or 1.0
    groups = grouped(table)
    lines = [f"Server profile: {total:.1f} s busy, {idle:.1f} s waiting in epoll "
             "(percentages are of the busy time)", "", "Self time by group:"]
    for group, seconds in sorted(groups.items(), key=lambda item: -item[1]):
        lines.append(f"  {100 * seconds / total:5.1f} %  {seconds:7.2f} s  {group}")
    for title, key in (("cumulative", 3), ("self", 2)):
        lines += ["", f"Top {top} by {title} time:"]
        # The event loop's own frames wrap everything: leave them out of the ranking.
        ranked = sorted(((f, e) for f, e in table.items()
                         if not is_idle(f) and not _is_loop(f)),
                        key=lambda item: -item[1][key])[:top]
        for (filename, line, name), entry in ranked:
            where = _short(filename)
            lines.append(f"  {100 * entry[key] / total:5.1f} %  {entry[key]:7.2f} s  "
                         f"{entry[1]:>9} calls  {name}  ({where}:{line})")
    return "\n".join(lines)


def _is_loop(function: tuple[str, int, str]) -> bool:
    return (group_of(function[0]).startswith("event loop")
            or function[2] == "<method 'run' of '_contextvars.Context' objects>")


def _short(filename: str) -> str:
    path = filename.replace("\\", "/")
    for root in ("site-packages/", "/lib/python3"):
        if root in path:
            return path.split(root, 1)[1]
    for mark in ("/diamant_tui/", "/server/", "/benchmarks/"):
        if mark in path:
            return mark.strip("/") + "/" + path.split(mark, 1)[1]
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python benchmarks/load_profile.py FILE  (a cProfile statistics file)")
    print(summary(sys.argv[1]))
