"""Computer players from outside this package, and the checks every decision goes through.

A player from outside is named like a built-in one, wherever names are read:

- ``path/to/file.py:Class``: the class ``Class`` defined in that Python file;
- ``package.module:Class``: the class ``Class`` of an importable module;
- ``NAME``: a class that an installed package offers in the entry point group
  ``diamant.bots`` under that name.

The class is built with no argument (or with ``rng=``, a :class:`random.Random`, when its
constructor takes one) and needs a single method, ``decide(view) -> Decision`` (see
:class:`~diamant_tui.bots.base.Bot`; ``watch(view)`` is optional). :func:`checked_decision`
runs one decision and turns whatever goes wrong (an exception, an answer that is not a
decision, too long a think) into a :class:`BotFailure` that names the player;
a player's ``sys.exit()``, or anything else it raises that is not an :class:`Exception`
(as ``pytest.fail`` does), when loading or deciding, is one more failure of the player,
never the end of the program (Ctrl+C alone still ends it);
:func:`checked_watch` shows a player a step from camp and says what went wrong, if anything.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import keyword
import os
import random
import signal
import sys
import threading
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ..engine.view import Decision, PlayerView
from .stuck import armed, give_up_if_late, stopped, was_stopped

ENTRY_POINT_GROUP = "diamant.bots"
TIME_LIMIT = 1.0
"""Seconds of processor time a computer player may think over one decision in the
simulator by default."""


def said(exc: BaseException, room: int = 160) -> str:
    """``exc`` as ``Type: message`` on one line, cut to about ``room`` characters.

    A player's exception may say anything over many lines; the one line that names the
    player must stay one line, whatever it quotes.
    """
    text = " ".join(str(exc).split())
    if len(text) > room:
        text = text[:room - 3] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class BotLoadError(ValueError):
    """A player from outside that cannot be loaded; the message says why and what to do."""


class BotFailure(RuntimeError):
    """A computer player raised, answered something that is not a decision, or was too slow."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"computer player {name!r} {problem}")
        self.name = name
        self.problem = problem

    def __reduce__(self):  # keeps the two arguments across process boundaries
        return (BotFailure, (self.name, self.problem))


def looks_outside(name: str, param: str) -> bool:
    """Whether ``NAME:PARAM`` names a class (a file or a module) rather than a parameter."""
    if name.endswith(".py") or "/" in name or "\\" in name:
        return True
    return bool(param) and param.isidentifier() and not keyword.iskeyword(param) and all(
        part.isidentifier() for part in name.split(".")
    )


def entry_point_names() -> tuple[str, ...]:
    """Names offered by installed packages in the ``diamant.bots`` group."""
    return tuple(sorted({ep.name for ep in _entry_points()}))


def _entry_points():
    try:
        return metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # a broken installed distribution must not stop the game
        return ()


@lru_cache(maxsize=None)
def load_class(spec: str) -> type:
    """The class named by ``spec`` (a file, a module or an entry point), checked."""
    name, sep, attr = spec.partition(":")
    if not sep and _names_a_file(name):
        raise BotLoadError(_class_missing(name))
    if not sep:
        found = [ep for ep in _entry_points() if ep.name == name]
        if not found:
            raise BotLoadError(f"no installed package offers a computer player {name!r}.")
        try:
            cls = found[0].load()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 (see the module docstring)
            raise BotLoadError(
                f"computer player {name!r} (from an installed package) could not be loaded: "
                f"{said(exc)}"
            ) from None
        return _checked_class(cls, spec)
    if _names_a_file(name):
        module = _load_file(Path(name))
    else:
        try:
            module = _import(name)
        except ImportError as exc:
            raise BotLoadError(
                f"{spec!r}: no module {name!r} can be imported ({' '.join(str(exc).split())}); "
                "name a module on the Python path, or a file ending in .py."
            ) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 (see the module docstring)
            raise BotLoadError(
                f"{spec!r}: importing module {name!r} failed: {said(exc)}"
            ) from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise BotLoadError(f"{spec!r}: {name} defines no {attr!r}.")
    return _checked_class(cls, spec)


def _names_a_file(name: str) -> bool:
    return name.endswith(".py") or "/" in name or "\\" in name


def _class_missing(name: str) -> str:
    """What to say of a file named without a class: which class to name, if it has one."""
    module = _load_file(Path(name))
    offered = [value.__name__ for value in vars(module).values()
               if inspect.isclass(value) and value.__module__ == module.__name__
               and callable(getattr(value, "decide", None))]
    if not offered:
        return (f"{name!r} names a file but no class, and it defines no class with a "
                "decide(view) method; write one and name it after a colon: FILE.py:Class.")
    return (f"{name!r} names a file but no class; name the class in it after a colon, "
            f"e.g. {name}:{offered[0]}.")


def _import(name: str):
    """Import module ``name``, also from the current directory (as ``python -m`` would)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != name.split(".")[0] or here in sys.path:
            raise
        sys.path.append(here)
        try:
            return importlib.import_module(name)
        finally:
            sys.path.remove(here)


def _load_file(path: Path):
    if path.is_dir():
        raise BotLoadError(f"{str(path)!r} is a folder; give the path to a Python file in it.")
    if not path.is_file():
        raise BotLoadError(f"{str(path)!r}: no such file; give the path to a Python file.")
    path = path.resolve()
    # One module per file, named after its full path, so two files may share a name.
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    module_name = f"diamant_outside_{path.stem}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise BotLoadError(f"{str(path)!r} cannot be loaded as Python code.")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    # As `python file.py` would, the file's folder is on the path, so that the modules
    # beside it import (when it loads and while it plays); at the end of the path, so
    # that a file of theirs named like a module of ours cannot take its place.
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)
    try:
        loader_spec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (see the module docstring)
        del sys.modules[module_name]
        where = ""
        if isinstance(exc, SyntaxError) and exc.lineno:
            where = f" (line {exc.lineno})"
        raise BotLoadError(
            f"{str(path)!r} could not be loaded{where}: {said(exc)}"
        ) from None
    return module


def _checked_class(cls, spec: str) -> type:
    if not inspect.isclass(cls):
        raise BotLoadError(f"{spec!r} is not a class.")
    if not callable(getattr(cls, "decide", None)):
        raise BotLoadError(f"{spec!r}: class {cls.__name__} has no decide(view) method.")
    return cls


def build(spec: str, rng: random.Random):
    """A new player of the class ``spec`` names, its spec set to ``spec``."""
    cls = load_class(spec)
    try:
        takes_rng = "rng" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_rng = False
    try:
        bot = cls(rng=rng) if takes_rng else cls()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (see the module docstring)
        # A constructor asking for more is the usual mistake: say what it may ask for.
        hint = ("; its class must be built with no argument, or with rng= alone"
                if isinstance(exc, TypeError) else "")
        raise BotLoadError(f"{spec!r} could not be built: {said(exc)}{hint}.") from None
    try:
        bot.spec = spec
    except AttributeError:
        pass  # a read-only spec of its own is kept
    return bot


@lru_cache(maxsize=None)
def check_built(spec: str) -> None:
    """Build one player of ``spec`` and let it go, so that a class whose constructor fails
    is refused where it is named, as a misspelt name is (not when a game starts).

    Once per name and program: only a success is remembered.
    """
    build(spec, random.Random(0))


# -- every decision, checked ----------------------------------------------------------


class _TooSlow(BaseException):
    """Raised inside a decision that runs past its time (never caught by ``except Exception``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        # Should the player swallow it, the later alarms know whom to name, and why.
        stopped(_deciding[0], _too_slow(signum, _deciding[1], _deciding[2]))


_deciding: list = ["", 0.0, ""]
"""The name, limit and moment of the decision under the alarm, for :class:`_TooSlow`."""


def _too_slow(signum: int, limit: float, where: str) -> str:
    if signum == signal.SIGALRM:
        return f"gave no answer within {limit * WALL_FACTOR:g} s {where}."
    return f"thought for more than {limit:g} s to decide {where}."


def _on_alarm(signum, frame):
    if was_stopped():  # it went on when told to stop: see :mod:`diamant_tui.bots.stuck`
        give_up_if_late()
        return
    raise _TooSlow(signum)


REPEAT = 0.1
"""Seconds between the alarms that follow the first, while a decision goes on after it."""


WALL_FACTOR = 10
"""A decision that uses little processor time (it waits) is stopped after this many
times the limit in real time."""


def as_decision(answer) -> Decision | None:
    """``answer`` as a decision: a :class:`Decision` or the text "continue" / "leave"."""
    if isinstance(answer, Decision):
        return answer
    if isinstance(answer, str):
        try:
            return Decision(answer.strip().lower())
        except ValueError:
            return None
    return None


def checked_watch(bot, view: PlayerView, name: str) -> str | None:
    """Show ``bot`` a step it watches from camp (its ``watch(view)``, if it has one).

    Returns None, or what went wrong as text naming ``name`` (the line to log), so that a
    player whose ``watch`` fails is ignored rather than stopping the game. ``watch`` is not
    timed: like reading the screen, it must be quick.
    """
    watch = getattr(bot, "watch", None)
    if watch is None:
        return None
    try:
        watch(view)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (see the module docstring)
        return (f"computer player {name!r} raised {said(exc)} in watch() "
                f"(round {view.round}, card {view.step}); it is not shown the game from "
                "camp any more")
    return None


def checked_decision(bot, view: PlayerView, name: str, limit: float | None = TIME_LIMIT) -> Decision:
    """``bot``'s decision for ``view``; a :class:`BotFailure` naming ``name`` if it raises,
    answers something else than continue or leave, or thinks longer than ``limit`` seconds.

    Thinking is counted in processor time, so a busy machine slows no player into a
    failure; a decision that waits instead is stopped after ``WALL_FACTOR`` times the
    limit. In the main thread a decision that runs over is interrupted (one that never
    ends cannot hang the simulator); elsewhere it is measured once it returns.
    """
    where = f"(round {view.round}, card {view.step})"
    alarm = (limit is not None and hasattr(signal, "setitimer")
             and threading.current_thread() is threading.main_thread())
    if alarm:
        _deciding[:] = [name, limit, where]
        previous = (signal.signal(signal.SIGPROF, _on_alarm),
                    signal.signal(signal.SIGALRM, _on_alarm))
        armed()
        signal.setitimer(signal.ITIMER_PROF, limit, REPEAT)
        signal.setitimer(signal.ITIMER_REAL, limit * WALL_FACTOR, REPEAT)
    start = time.thread_time()
    try:
        answer = bot.decide(view)
    except _TooSlow as slow:
        raise BotFailure(name, _too_slow(slow.args[0], limit, where)) from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (see the module docstring)
        raise BotFailure(name, f"raised {said(exc)} {where}.") from None
    finally:
        if alarm:
            armed()
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGPROF, previous[0])
            signal.signal(signal.SIGALRM, previous[1])
    took = time.thread_time() - start
    if limit is not None and took > limit:
        raise BotFailure(name, f"thought for {took:.2f} s to decide, more than {limit:g} s {where}.")
    decision = as_decision(answer)
    if decision is None:
        shown = repr(answer)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise BotFailure(
            name, f"answered {shown} {where}: decide() must return Decision.CONTINUE or "
            "Decision.LEAVE (or the text 'continue' or 'leave')."
        )
    return decision
