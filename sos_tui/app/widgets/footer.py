"""The footer: the keys of the view in front, each shown whole."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, KeyGroup

KEPT = frozenset({"help", "app.help"})
"""The keys a footer shows whatever its width: the help, which lists every key of the view."""


class KeyFooter(Footer):
    """Textual's footer, built again only when the keys it shows change (when only whether they
    work now changes, they are restyled in place), and built in one styling pass. Textual's
    rebuilds itself (a dozen widgets mounted and styled) whenever a screen says its keys may have
    changed: each focus change, each dialog opened or closed, each move, most of them changing
    nothing. And each key it mounts starts compact and is then bound to the footer's
    (not compact), so its styles are worked out three times.

    A key that does not fit is left out rather than cut ("? H"): the help's key is always shown
    (the help lists every key), the command palette's at the right, and each other key in turn
    while there is room for it."""

    _shown: tuple | None = None

    def bindings_changed(self, screen: Screen) -> None:
        keys = [(binding, enabled, tooltip)  # worked out once: the screen translates every binding
                for _, binding, enabled, tooltip in screen.active_bindings.values() if binding.show]
        shown = tuple((binding.key, binding.description, enabled, tooltip)
                      for binding, enabled, tooltip in keys)
        if shown == self._shown:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:  # it will change
            if self._same_keys(shown):
                self._enable(keys)
                self._shown = shown
                return
            self._shown = shown
        super().bindings_changed(screen)

    def _same_keys(self, shown: tuple) -> bool:
        """Whether ``shown`` has the keys shown now, with the same words (whether each works now,
        and its tooltip, may differ): then the keys change in place (``_enable``), not rebuilt."""
        return (self._shown is not None and bool(self.children)
                and not any(isinstance(child, KeyGroup) for child in self.children)
                and [key[:2] for key in shown] == [key[:2] for key in self._shown])

    def _enable(self, keys: list) -> None:
        """Show each key as working or not now (dimmed), with its tooltip, in place (``keys``: the
        shown bindings, each with whether it works and its tooltip). A move changes only that (undo
        works after it, not before): rebuilding every key took most of a move's time on screen."""
        now: dict[str, tuple[bool, str]] = {}
        for binding, enabled, tooltip in keys:
            now.setdefault(binding.action, (enabled, tooltip))  # the first per action, as Footer's
        for key in self.query_children(FooterKey):
            if key.action in now and not key.has_class("-command-palette"):
                enabled, tooltip = now[key.action]
                key.set_class(not enabled, "-disabled")
                key._disabled = not enabled  # Textual's FooterKey rings the bell on a click when set
                key.tooltip = tooltip or None

    def compose(self) -> ComposeResult:
        self._widths: dict[Widget, int] = {}  # the keys' widths, worked out once each: their words stay
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
        width = self._widths.get(widget)
        if width is None:
            styles = widget.styles
            width = self._widths[widget] = (widget.get_content_width(self.size, self.app.size)
                                            + styles.gutter.width + styles.margin.width)
        return width
