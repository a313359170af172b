"""The footer: the keys of the view in front, each shown whole."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KEPT = frozenset({"help", "app.help"})
"""The keys a footer shows whatever its width: the help, which lists every key of the view."""


class KeyFooter(Footer):
    """Textual's footer, built again only when the keys it shows change, and built in one styling
    pass. Textual's rebuilds itself (a dozen widgets mounted and styled) whenever a screen says
    its keys may have changed: each focus change, each dialog opened or closed, most of them
    changing nothing. And each key it mounts starts compact and is then bound to the footer's
    (not compact), so its styles are worked out three times.

    A key that does not fit is left out rather than cut ("? H"): the help's key is always shown
    (the help lists every key), the command palette's at the right, and each other key in turn
    while there is room for it."""

    _shown: tuple | None = None

    def bindings_changed(self, screen: Screen) -> None:
        shown = tuple((binding.key, binding.description, enabled, tooltip)
                      for _, binding, enabled, tooltip in screen.active_bindings.values() if binding.show)
        if shown == self._shown:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:  # it will rebuild
            self._shown = shown
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Show the keys that fit the footer's width, and hide the others."""
        keys = [child for child in self.children if not child.has_class("-command-palette")]
        kept = [key for key in keys if getattr(key, "action", None) in KEPT]
        room = self.size.width - sum(self._width(child) for child in self.children if child not in keys)
        room -= sum(self._width(key) for key in kept)
        for key in keys:
            width = 0 if key in kept else self._width(key)
            key.display = width <= room
            if key.display:
                room -= width

    def _width(self, widget: Widget) -> int:
        """The columns ``widget`` takes in the footer, shown or not."""
        styles = widget.styles
        return widget.get_content_width(self.size, self.app.size) + styles.gutter.width + styles.margin.width
