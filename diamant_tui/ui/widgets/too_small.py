"""An overlay asking to enlarge a terminal smaller than 80x24.

While it is shown the keys do nothing (the app drops them): nobody can see what they
would act on. It says that the game goes on meanwhile only where a game is going on. A
screen whose few words can be read in its place (the question Ctrl+Q asks) has them
written here instead, with the keys that answer them.
"""

from __future__ import annotations

from typing import Callable

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

MIN_WIDTH = 80
MIN_HEIGHT = 24


def below_minimum(size: Size) -> bool:
    """Whether a terminal of ``size`` is too small for the game (below 80x24)."""
    width, height = size
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmall(Widget):
    """Shown (by the screen's CSS breakpoint classes) when the terminal is below 80x24.

    ``game_goes_on`` tells whether a game goes on under the screen it covers; the app
    refreshes the overlay when that changes. ``instead`` gives the words the screen it
    covers would have them say in place of the notice, if any.
    """

    # Over the whole screen, in the screen's overlay layer. Whether it shows is the
    # screen's affair (its size classes, in diamant.tcss).
    DEFAULT_CSS = """
    TooSmall {
        layer: overlay;
        dock: top;
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
        text-style: bold;
        background: $panel;
        color: $text;
    }
    """

    def __init__(self, game_goes_on: Callable[[], bool] = lambda: False,
                 instead: Callable[[], str | None] = lambda: None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._game_goes_on = game_goes_on
        self._instead = instead

    def render(self) -> Content:
        instead = self._instead()
        if instead is not None:
            return Content(instead)
        text = self.app.t("too_small.enlarge", width=MIN_WIDTH, height=MIN_HEIGHT)
        if self._game_goes_on():
            text += "\n" + self.app.t("too_small.game_goes_on")
        return Content(text)
