"""Per-session output settings for an app: colours from the client's terminal, errors to the log.

Textual builds an app's console from the server's own environment; over SSH every session
has its own terminal, so its colour depth comes from the client's ``TERM`` (and
``COLORTERM`` / ``NO_COLOR`` when the client sends them). What the host must see goes to
the server's own terminal (:func:`tell_host`).
"""

from __future__ import annotations

import io
import logging
import sys
from typing import Mapping

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual.app import App
from textual.strip import Strip

from diamant_tui.ui.colours import apply_colours

_COLOR_VARIABLES = ("COLORTERM", "NO_COLOR")
_TEXTUAL_RENDER = Strip.render
"""Textual's own ``Strip.render`` (one rendering per strip), as :func:`_render_strip`
replaces it."""


class _NullFile(io.TextIOBase):
    """Textual renders through the console but writes through the driver."""

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return True


class _LogFile(io.TextIOBase):
    """A text stream that sends each written line to a logger."""

    def __init__(self, logger: logging.Logger, prefix: str) -> None:
        self._logger = logger
        self._prefix = prefix

    def write(self, text: str) -> int:
        for line in text.rstrip().splitlines():
            if line.strip():
                self._logger.error("%s: %s", self._prefix, line)
        return len(text)


def tell_host(text: str) -> None:
    """Show ``text`` on the host's terminal (the server process's real stderr), whatever
    the log's level and destination: a problem the host has to act on."""
    stream = sys.__stderr__
    if stream is None:
        return
    try:
        stream.write(f"Diamant server: {text}\n")
        stream.flush()
    except (OSError, ValueError):
        pass  # no terminal to tell (closed): the log has it


def client_environment(term_type: str, environment: Mapping[str, str]) -> dict[str, str]:
    """The variables that decide colours, as the client's terminal gave them."""
    env = {"TERM": term_type or "xterm"}
    env.update({k: environment[k] for k in _COLOR_VARIABLES if k in environment})
    return env


def _console(env: Mapping[str, str], color_system: str) -> Console:
    return Console(
        color_system=color_system,  # type: ignore[arg-type]
        file=_NullFile(),
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=dict(env),
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )


def _render_style(style: Style, text: str, color_system: ColorSystem) -> str:
    ansi = Strip.render_ansi(style, color_system)  # cached per style *and* colour depth
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


def _render_strip(self: Strip, console: Console) -> str:
    """``Strip.render``, its codes kept per colour depth.

    Textual keeps one rendering per strip, whatever the colour depth. Kept per depth, a
    strip drawn once for the process (the lines every seat at a table shares) is turned
    into escape codes once per depth, not once per app at every frame."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    kept = self._render_cache
    if not isinstance(kept, dict):
        # None, or Textual's own rendering, for a depth it does not say, of a strip drawn
        # before this was put in place (a strip kept for the process): made again.
        kept = self._render_cache = {}
    else:
        text = kept.get(color_system)
        if text is not None:
            return text
    text = kept[color_system] = "".join([
        text if style is None else _render_style(style, text, color_system)
        for text, style, _ in self._segments
    ])
    return text


def _join_strips(cls, strips) -> Strip:
    """``Strip.join`` without carrying the parts' renderings over (kept per colour depth
    here, see :func:`_render_strip`)."""
    join_strips = [strip for strip in strips if strip is not None and strip.cell_count]
    segments = [segment for strip in join_strips for segment in strip._segments]
    if any([strip._cell_length is None for strip in join_strips]):
        cell_length = None
    else:
        cell_length = sum([strip._cell_length or 0 for strip in join_strips])
    return cls(segments, cell_length)


def share_strips_safely() -> None:
    """Stop one session's colour codes leaking into another's screen.

    Textual caches rendered escape codes on the strip and on the style itself, whatever
    the colour depth, and strips and styles are shared by every app in the process: a
    16-colour client would be sent the 256-colour codes cached for another client. The
    codes are cached per colour depth instead, for a style (``Strip.render_ansi``) and
    for a strip.
    """
    Strip.render = _render_strip  # type: ignore[method-assign]
    Strip.join = classmethod(_join_strips)  # type: ignore[method-assign]


def configure_app(app: App[object], env: Mapping[str, str], logger: logging.Logger,
                  session_id: str) -> None:
    """Give ``app`` the client's colours, and send its error output to ``logger``.

    ``NO_COLOR`` counts when the client sent it (OpenSSH sends it only when told to, with
    ``SetEnv NO_COLOR=1`` or ``SendEnv NO_COLOR``) and it is not empty (no-color.org).
    """
    share_strips_safely()
    app.console = _console(env, "auto")
    app.no_color = bool(env.get("NO_COLOR"))
    if app.console.color_system is None:
        # A terminal type with no known colours ("dumb", "unknown"): Textual would send
        # truecolor codes. Bold and reverse video still need a console that sends styles.
        app.console = _console(env, "standard")
        app.no_color = True
    apply_colours(app)
    # Tracebacks Textual would print to the server's stderr go to the log instead.
    app.error_console = Console(file=_LogFile(logger, session_id), markup=False,
                                highlight=False, width=120, color_system=None)
