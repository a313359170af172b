"""What every screen that shows a ``GameSource`` (a local game, a network game, a replay) shares:
it follows its source the same way, and offers the source's keys as the source says.

``follow(source)`` subscribes the screen to the source; every change the source reports refreshes
the keys and goes to the screen's ``show(change)``, the one place a screen sets what it shows.
A key of a game's action (``session.Action``) is offered as ``source.may`` answers: True, offered;
None, not now: shown dimmed in the footer; False, never in this game: not offered at all (the
footer, the help and the palette leave it out). A dimmed key still answers when pressed: its
action runs and says why nothing happens ("Nothing to undo.").
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.actions import parse

from sos_tui.session import Action, Change, GameSource

from ..language import Result, SosScreen

ACTIONS = frozenset(str(action) for action in Action)


class SourceScreen(SosScreen[Result]):
    _unfollow: Callable[[], None] | None = None

    @property
    def source(self) -> GameSource | None:
        """The game shown (None before there is one)."""
        raise NotImplementedError

    def follow(self, source: GameSource) -> None:
        """Show ``source`` from now on (and no longer the one shown before)."""
        self.unfollow()
        self._unfollow = source.subscribe(self._changed)

    def unfollow(self) -> None:
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None

    def _changed(self, change: Change) -> None:
        self.refresh_bindings()  # what the game offers may have changed (an undo, a hint)
        self.show(change)

    def show(self, change: Change) -> None:
        """Show the game as ``change`` left it."""
        raise NotImplementedError

    def may(self, action: str) -> bool | None:
        """Whether the screen's ``action`` is offered now: True; not now (dimmed): None; never: False."""
        if action in ACTIONS and self.source is not None:
            return self.source.may(Action(action))
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.may(action)

    def on_key(self, event: events.Key) -> None:
        """A dimmed key of this screen: its action runs anyway, to say why it does nothing now."""
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.node is not self:
            return
        namespace, name, parameters = parse(active.binding.action)
        if not namespace:
            event.stop()
            event.prevent_default()
            getattr(self, f"action_{name}")(*parameters)

    def on_unmount(self) -> None:
        self.unfollow()
