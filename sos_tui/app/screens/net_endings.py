"""The network game screen's keys for ending a game early (``EndingKeys``): g resigns and A aborts,
each asked first with "Play on" in reach; d offers a draw, and the other player is asked in a
dialog that stands only while the offer does; c claims the players gone longer than the server
allows. The server decides; these say why not when this terminal can tell."""

from __future__ import annotations

from sos_tui.engine import printable
from sos_tui.i18n import _
from sos_tui.net import RemoteGame

from . import net_words as words


class EndingKeys:
    """Part of ``NetGameScreen``: it uses the screen's ``game``, ``dialogs``, ``_ask``, ``_send``
    and ``notify``."""

    def _seated(self) -> RemoteGame | None:
        """The game, for a seated player connected to it; None (said why) otherwise."""
        game = self.game
        if game is None or not game.my_seats:
            self.notify(_("Only a seated player can do that."), timeout=2)
            return None
        if not game.connected:
            self.notify(_("Not connected: wait for the connection to come back."), timeout=3)
            return None
        if not game.under_way:
            over = game.phase == "over"
            self.notify(_("The game is over.") if over else _("The game has not started yet."), timeout=2)
            return None
        return game

    def action_resign(self) -> None:
        game = self._seated()
        if game is None:
            return
        seat = game.person_seat
        if seat is None:
            self.notify(
                _("Wait for your turn: nobody here is to move.")
                if game.in_game
                else _("You are out of this game."),
                timeout=2,
            )
            return
        name = printable(game.seats[seat].name)[:40]
        self.dialogs.ask(
            words.resign_asked(name),
            lambda resign: self._send(game.resign(seat)) if resign and game.under_way else None,
            lambda: game.under_way,
        )

    def action_abort(self) -> None:
        game = self._seated()
        if game is None:
            return
        if not game.may("abort"):
            self.notify(_("too late to abort: every player has moved; resign instead"), timeout=3)
            return
        self.dialogs.ask(
            words.abort_asked(),
            lambda abort: self._send(game.abort()) if abort else None,
            lambda: bool(game.may("abort")),
        )

    def action_offer_draw(self) -> None:
        game = self._seated()
        if game is None:
            return
        if not game.may("offer_draw"):
            self.notify(_("A draw can be offered by two players still in, one offer at a time."), timeout=3)
            return
        self.notify(_("Draw offered: waiting for the answer…"), timeout=3)
        self._send(game.offer_draw())

    def action_claim(self) -> None:
        game = self._seated()
        if game is not None:
            self._send(game.claim())

    def _draw_offered(self, seat: int) -> None:
        """Ask this terminal's player about the draw ``seat`` offers, while it stands."""
        game = self.game
        other = next((p for p in game.state.still_in if p != seat), None)
        if other is None or other not in game.my_seats:
            if seat in game.my_seats:
                return  # this player's own offer: said when it was made
            names = [printable(s.name)[:40] for s in game.seats]
            self.notify(
                _("{name} offers {other} a draw.").format(name=names[seat], other=names[other]),
                timeout=4,
                markup=False,
            )
            return
        names = [printable(s.name)[:40] for s in game.seats]
        self._ask(
            words.draw_asked(names[seat], names[other]), game.answer_draw, lambda: game.draw_offer == seat
        )
