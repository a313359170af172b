"""Component styles looked up once per theme."""

from __future__ import annotations

from rich.style import Style


class ThemedStyles:
    """Mixed into a widget that draws with its component classes: a lookup is a CSS query, and
    the board, the move log and the scoreboard make dozens a frame. Textual calls
    ``notify_style_update`` whenever the widget's styles change (a theme switch too): the looked-up
    styles are forgotten and the widget is drawn again."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._themed_styles: dict[str, Style] = {}

    def component(self, name: str) -> Style:
        """The style of component class ``name``, to add to the widget's own: only what the
        component sets, with its colours as drawn over the widget. A colour with alpha (``$primary
        25%``) is blended with the background under it; the partial style alone would paint it
        at full strength (``$foreground 4%`` as a background the colour of the text)."""
        style = self._themed_styles.get(name)
        if style is None:
            partial = self.get_component_rich_style(name, partial=True)
            blended = self.get_component_rich_style(name)  # the widget's style, the component's over it
            style = self._themed_styles[name] = partial + Style(
                color=blended.color if partial.color else None,
                bgcolor=blended.bgcolor if partial.bgcolor else None,
            )
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._themed_styles.clear()
        self.refresh()
