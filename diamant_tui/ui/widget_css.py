"""Every widget's own CSS in an app's stylesheet from the start.

Textual adds a widget's ``DEFAULT_CSS`` to the app's stylesheet when the first widget of
its kind is mounted, and each source added then makes the app parse its stylesheet again
(from the rules every app shares, see :mod:`.shared_css`) and rebuild its index of rules.
The game's widgets arrive a few at a time as a table is shown (the size overlay after its
screen, for one): that was a few more of each for every join. Added when the app is made,
before the stylesheet is first parsed, they cost nothing more; when the widgets mount,
Textual finds their CSS already there and leaves the stylesheet as it is.
"""

from __future__ import annotations

import inspect

from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from .widgets.cave_path import CavePath
from .widgets.decision import ChoiceButton, DecisionPanel
from .widgets.deck_info import DeckInfo
from .widgets.event_banner import EventBanner
from .widgets.final_scores import PARTS as FINAL_SCORES_PARTS
from .widgets.final_scores import FinalScores
from .widgets.game_log import GameLog
from .widgets.key_bar import KeyBar
from .widgets.players import PlayerList
from .widgets.replay_header import ReplayHeader
from .widgets.replay_progress import ReplayProgress
from .widgets.round_bar import RoundBar
from .widgets.round_summary import RoundSummary
from .widgets.score_table import ScoreTable
from .widgets.steady_input import SteadyInput
from .widgets.too_small import TooSmall
from .widgets.waiting import WaitingPanel

STYLED_WIDGETS: tuple[type[DOMNode], ...] = (
    CavePath, ChoiceButton, DecisionPanel, DeckInfo, EventBanner, FinalScores, GameLog,
    KeyBar, PlayerList,
    ReplayHeader, ReplayProgress, RoundBar, RoundSummary, ScoreTable, TooSmall,
    WaitingPanel,
    # CSS only through their bases (Textual's Input, Label, Button), mounted after the
    # app's first parse: the chat box as the table shows, the final scores at a game's
    # end. Each base's CSS added then parsed the whole stylesheet again and styled every
    # widget of the app anew, for every seat.
    SteadyInput, *FINAL_SCORES_PARTS,
)
"""The game's widgets that carry CSS of their own, or that mount later with a base's."""


def own_css_source(cls: type[DOMNode]) -> tuple[tuple[str, str], str, int, str]:
    """``cls``'s own DEFAULT_CSS as Textual adds it for a widget of that class: where it
    was read from, the CSS, its tie breaker (0: the class itself) and its scope."""
    try:
        path = inspect.getfile(cls)
    except (TypeError, OSError):
        path = ""
    scope = cls._css_type_name if cls.__dict__.get("SCOPED_CSS", True) else ""
    return (path, f"{cls.__name__}.DEFAULT_CSS"), cls.__dict__["DEFAULT_CSS"], 0, scope


def css_sources(cls: type[DOMNode]) -> list[tuple[tuple[str, str], str, int, str]]:
    """The DEFAULT_CSS Textual adds when the first widget of class ``cls`` mounts: its
    own (tie breaker 0) and each base's it inherits (-1, -2…), as :func:`own_css_source`."""
    sources = []
    for tie_breaker, base in enumerate(cls._css_bases(cls)):
        if base.__dict__.get("DEFAULT_CSS"):
            read_from, css, _, scope = own_css_source(base)
            sources.append((read_from, css, -tie_breaker, scope))
    return sources


def add_widget_css(stylesheet: Stylesheet) -> None:
    """Add the CSS of every widget in :data:`STYLED_WIDGETS`, with its bases', to
    ``stylesheet``.

    The bases' too, with the tie breakers Textual gives them, as it does when such a
    widget mounts: otherwise a plain ``Horizontal`` mounted first adds its CSS with the
    tie breaker of a class's own, and a ``DecisionPanel`` (a ``Horizontal``) mounted
    later is styled before Textual lowers it, its own height losing to Horizontal's.
    """
    for cls in STYLED_WIDGETS:
        for read_from, css, tie_breaker, scope in css_sources(cls):
            # Textual keeps the lowest tie breaker a source is added with.
            stylesheet.add_source(css, read_from=read_from, is_default_css=True,
                                  tie_breaker=tie_breaker, scope=scope)


__all__ = ["STYLED_WIDGETS", "add_widget_css", "css_sources", "own_css_source"]
