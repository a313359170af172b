"""The footer: the keys of the view in front."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's footer, built again only when the keys it shows change, and built in one styling
    pass. Textual's rebuilds itself (a dozen widgets mounted and styled) whenever a screen says
    its keys may have changed: each focus change, each dialog opened or closed, most of them
    changing nothing. And each key it mounts starts compact and is then bound to the footer's
    (not compact), so its styles are worked out three times."""

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
