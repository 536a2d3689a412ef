"""The Textual interface: it renders the views a table sends and sends intents back."""

from .app import DiamantApp, make_app
from .screens.table import TableScreen
from .setup_choices import SetupChoices

__all__ = ["DiamantApp", "SetupChoices", "TableScreen", "make_app"]
