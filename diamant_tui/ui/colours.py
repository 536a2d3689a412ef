"""The app's colours for the terminal it draws on: full colour, 16 colours or none.

- Full colour (256 colours or truecolor): the usual theme.
- 16 colours: a theme of the terminal's own ANSI colours (:data:`SIXTEEN`), which every
  such terminal shows as its user set them up, instead of theme colours rounded to the
  nearest of 16 (which turns treasure, hazard and warning colours alike to bright red).
- No colour (``NO_COLOR`` set, https://no-color.org, or a terminal with no colours at
  all): Textual's :class:`~textual.filter.NoColor` filter (not ``Monochrome``, which sends
  grey shades as colour codes) and a theme (:data:`MONOCHROME`) that marks the focused
  and chosen things with bold and reverse video, so nothing is lost without colour.

:func:`apply_colours` is called for every app: by :class:`~diamant_tui.ui.app.DiamantApp`
from the local environment, and again by a host (the SSH server) once it has given the
app a console for the client's own terminal.
"""

from __future__ import annotations

from textual.app import App
from textual.filter import Monochrome, NoColor
from textual.theme import BUILTIN_THEMES, Theme

FULL = "textual-dark"
"""The theme with 256 colours or more (Textual's default)."""

_ANSI_VARIABLES = {
    "ansi-background": "ansi_black",
    "ansi-foreground": "ansi_white",
    "border-blurred": "ansi_bright_black",
    # A list's chosen row in reverse video, in the terminal's own two colours: black on
    # the palette's white all but vanished on a light terminal, whose background is
    # white or near it. (An open form list takes no reverse video: see diamant.tcss.)
    "block-cursor-foreground": "ansi_default",
    "block-cursor-background": "ansi_default",
    "block-cursor-text-style": "bold reverse",
    "input-cursor-background": "ansi_white",
    "input-cursor-foreground": "ansi_black",
    "input-cursor-text-style": "none",
    "input-selection-background": "ansi_blue",
    "input-selection-foreground": "ansi_white",
    "screen-selection-background": "ansi_blue",
    "screen-selection-foreground": "ansi_white",
    "button-focus-text-style": "bold reverse",
    "footer-key-foreground": "ansi_cyan",
    # Textual's ANSI themes lay scroll bars on black: on a light terminal the game log's
    # and the rules' bars were black strips down the screen. Their thumb (blue) shows on
    # the terminal's own background, light or dark.
    "scrollbar-background": "ansi_default",
    "scrollbar-background-hover": "ansi_default",
    "scrollbar-background-active": "ansi_default",
    "scrollbar-corner-color": "ansi_default",
}

SIXTEEN = Theme(
    name="diamant-16",
    ansi=True,
    dark=True,
    # Treasure is yellow, hazards red, relics magenta, what went well green: the colours
    # the cards have on the table, in the terminal's own shades. The default foreground
    # and background are the terminal's, so light and dark terminals both read well.
    primary="ansi_blue",
    secondary="ansi_cyan",
    warning="ansi_yellow",
    error="ansi_red",
    success="ansi_green",
    accent="ansi_magenta",
    foreground="ansi_default",
    background="ansi_default",
    surface="ansi_default",
    panel="ansi_default",
    boost="ansi_default",
    variables=_ANSI_VARIABLES,
)
"""The theme for terminals of 16 colours."""

MONOCHROME = Theme(
    name="diamant-monochrome",
    ansi=True,
    dark=True,
    primary="ansi_default",
    secondary="ansi_default",
    warning="ansi_default",
    error="ansi_default",
    success="ansi_default",
    accent="ansi_default",
    foreground="ansi_default",
    background="ansi_default",
    surface="ansi_default",
    panel="ansi_default",
    boost="ansi_default",
    variables={
        **_ANSI_VARIABLES,
        # Without colour, the cursor and the focused button show in reverse video.
        "block-cursor-text-style": "bold reverse",
        "block-cursor-blurred-text-style": "reverse",
        "input-cursor-text-style": "reverse",
        "input-selection-foreground": "ansi_default",
        "footer-key-foreground": "ansi_default",
    },
)
"""The theme without colour: every colour is the terminal's default one."""


def colour_mode(app: App[object]) -> str:
    """``"none"``, ``"16"`` or ``"full"``: what the app's console can show, and whether
    ``NO_COLOR`` asked for none."""
    system = app.console.color_system
    if app.no_color or system is None:
        return "none"
    return "16" if system == "standard" else "full"


def apply_colours(app: App[object]) -> None:
    """Choose the theme and filters for the app's console (see the module docstring).

    Call it again whenever the app gets a new console.
    """
    for theme in (SIXTEEN, MONOCHROME):
        if theme.name not in app.available_themes:
            app.register_theme(theme)
    mode = colour_mode(app)
    app._filters = [f for f in app._filters if not isinstance(f, (Monochrome, NoColor))]
    if mode == "none":
        app.no_color = True
        app._filters.append(NoColor())
        app.theme = MONOCHROME.name
    elif mode == "16":
        app.theme = SIXTEEN.name
    elif app.theme in (SIXTEEN.name, MONOCHROME.name):
        app.theme = FULL if FULL in BUILTIN_THEMES else next(iter(BUILTIN_THEMES))
