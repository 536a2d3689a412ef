"""An overlay asking to enlarge a terminal smaller than 80x24.

While it is shown the keys do nothing (the app drops them): nobody can see what they
would act on. It says that the game goes on meanwhile only where a game is going on.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Widget):
    """Shown (by the screen's CSS breakpoint classes) when the terminal is below 80x24.

    The app says whether a game goes on under the screen it covers
    (``app.game_goes_on_under(screen)``); the app refreshes it when that changes.
    """

    def render(self) -> Content:
        app = self.app
        text = app.t("too_small.enlarge", width=MIN_WIDTH, height=MIN_HEIGHT)
        game_goes_on = getattr(app, "game_goes_on_under", None)
        if game_goes_on is not None and game_goes_on(self.screen):
            text += "\n" + app.t("too_small.game_goes_on")
        return Content(text)
