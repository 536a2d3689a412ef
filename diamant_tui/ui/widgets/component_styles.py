"""Component styles looked up once per change of CSS, not once per redraw."""

from __future__ import annotations

from rich.style import Style


class KeptComponentStyles:
    """Mixin for a widget: :meth:`component_style` keeps what it looked up.

    Textual forgets a widget's component styles at every refresh, and looking one up walks
    the widget's ancestors for their background: for a list redrawn at every decision
    that was a third of a seat's CPU. What this keeps is forgotten when the widget's CSS
    is applied again (a new theme, a class changed), the one time the answer can change.
    """

    _kept_styles: dict[str, Style] | None = None

    def component_style(self, name: str) -> Style:
        """The Rich style of the component class ``name`` (as ``get_component_rich_style``)."""
        kept = self._kept_styles
        if kept is None:
            kept = self._kept_styles = {}
        style = kept.get(name)
        if style is None:
            style = kept[name] = self.get_component_rich_style(name)  # type: ignore[attr-defined]
        return style

    def notify_style_update(self) -> None:
        self._kept_styles = None
        super().notify_style_update()  # type: ignore[misc]
