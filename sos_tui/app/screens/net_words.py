"""What the network screen says: the status line over the board, from a ``NetStatus`` and the
game; and the question asked when the game cannot go on."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sos_tui.engine import IllegalMoveError, Move, printable, shorten
from sos_tui.i18n import _, explain, ngettext
from sos_tui.net import NetError, RemoteGame
from sos_tui.net.netsession import NetStatus
from sos_tui.net.protocol import (
    RematchRequestMessage,
    RematchResultMessage,
    ServerMessage,
    UndoRequestMessage,
    UndoResultMessage,
)
from sos_tui.net.vocabulary import Phase
from sos_tui.session import NotYourTurnError

from ..dialogs import Choice
from ..text import names_list
from .game import refused


def status_text(status: NetStatus, game: RemoteGame | None, join_url: str | None) -> str:
    """The lines over the board: the join command, the connection, and the game's turn."""
    lines = []
    if join_url:
        # Translators: NAME is what a friend types after --name: keep it in capitals.
        lines.append(
            _("Friends join with:  {command}").format(command=f"sos-tui join {join_url} --name " + _("NAME"))
        )
    lost = status.lost
    if status.reconnecting:
        lines.append(
            _("Connection lost: {problem}. Reconnecting… (attempt {n}; ctrl+r now, ctrl+l leaves)").format(
                problem=explain(lost), n=status.attempt
            )
        )
    elif lost is not None and status.ended:
        lines.append(_("The game has ended: {problem}. ctrl+l leaves.").format(problem=explain(lost)))
    elif lost is not None:
        lines.append(
            _("Connection lost: {problem}. ctrl+r reconnects, ctrl+l leaves.").format(problem=explain(lost))
        )
    elif game is None:
        lines.append(_("Connecting…"))
    else:
        lines.append(_turn(status, game))
    lines = [line for line in lines if line]
    if lines and game is not None and lost is None and game.spectators:
        lines[-1] += "  " + ngettext(
            "{n} person is watching.", "{n} people are watching.", game.spectators
        ).format(n=game.spectators)
    return "\n".join(lines)


def _turn(status: NetStatus, game: RemoteGame) -> str:
    if status.phase is Phase.LOBBY:
        return ngettext(
            "Waiting for {n} more player to join…", "Waiting for {n} more players to join…", status.open_seats
        ).format(n=status.open_seats)
    if status.waiting_for:
        names = names_list([printable(name)[:40] for name in status.waiting_for])
        waiting = _("Waiting for {names} to reconnect…").format(names=names)
        return " ".join(filter(None, (waiting, gone_text(game))))
    if game.state is not None and game.state.is_over:
        if not game.record:
            return _("Game over")
        result, ending = game.record.result_text(tr=_), game.record.ending_text(tr=_)
        if ending and game.state.outcome.has_result:  # "Ana wins (Bo resigned)"; aborted says it all
            text = _("Game over: {result} ({ending})")
            return text.format(result=printable(result), ending=printable(ending))
        return _("Game over: {result}").format(result=printable(result))
    if game.my_turn:
        return _("Your turn.")
    if game.seat_to_move is not None:
        who = printable(game.seat_to_move.name)
        return (
            _("{name}'s turn.").format(name=who)
            if game.my_seats
            else _("{name}'s turn.  (You are watching.)").format(name=who)
        )
    return ""


def gone_text(game: RemoteGame) -> str:
    """How long the player gone first has been gone, and whether ``c`` claims now ("" when this
    terminal has nobody to claim)."""
    away = [a for a in game.away if a.seat not in game.my_seats]
    if not away or not game.in_game or not game.under_way:
        return ""
    now, first = time.monotonic(), min(away, key=lambda a: a.since)
    name = printable(game.seats[first.seat].name)[:40]
    if not first.claimable(now):
        return _("{name} has been gone {time}.").format(name=name, time=first.gone_for(now))
    text = (
        _("{name} has been gone {time}: press c to claim the win.")
        if len(game.state.still_in) == 2
        else _("{name} has been gone {time}: press c to drop them from the game.")
    )
    return text.format(name=name, time=first.gone_for(now))


def resign_asked(name: str) -> Choice:
    """Resign? The dialog opens on "Play on" (enter and escape give it)."""
    return Choice(
        lambda: _("{name}, resign this game?").format(name=name), lambda: _("Resign"), lambda: _("Play on")
    )


def abort_asked() -> Choice:
    return Choice(
        lambda: _("Abort this game? It ends with no result and goes into no history."),
        lambda: _("Abort"),
        lambda: _("Play on"),
    )


def draw_asked(name: str, other: str) -> Choice:
    return Choice(
        lambda: _("{name} offers a draw. {other}, do you accept?").format(name=name, other=other),
        lambda: _("Accept the draw"),
        lambda: _("Play on"),
    )


def ending(problem: NetError, game: RemoteGame | None) -> tuple[Choice, bool]:
    """The question asked when the connection is gone for good, and whether its yes plays on here
    (else it leaves)."""
    if game is not None and game.ended:  # closed for good: nothing to reconnect to
        return Choice(
            lambda: _("The game has ended: {problem}.").format(problem=explain(problem)),
            lambda: _("Leave"),
            lambda: _("Stay"),
        ), False
    if game is None or not game.my_seats or game.record is None:
        return Choice(
            lambda: _("Could not start the network game: {problem}").format(problem=explain(problem)),
            lambda: _("Leave"),
            lambda: _("Stay"),
        ), False
    if problem.code == "replaced":  # the player took the seat up elsewhere: not to win back
        return Choice(
            lambda: _("Your seat is played from another terminal now, and this one has let it go."),
            lambda: _("Leave"),
            lambda: _("Stay"),
        ), False
    return Choice(
        lambda: _(
            "The game is gone from its server: {problem}.\n\nPlay on here from the last "
            "position, at this one screen?"
        ).format(problem=explain(problem)),
        lambda: _("Play on here"),
        lambda: _("Leave"),
        safe=True,
    ), True


def undo_asked(name: str) -> Choice:
    return Choice(
        lambda: _("{name} asks to undo the last turn. Agree?").format(name=name),
        lambda: _("Accept"),
        lambda: _("Decline"),
    )


def rematch_asked(name: str, first: str) -> Choice:
    return Choice(
        lambda: _("{name} offers a rematch ({first} starts). Play again?").format(name=name, first=first),
        lambda: _("Play again"),
        lambda: _("No, thanks"),
    )


def left_game(names: str) -> Choice:
    return Choice(
        lambda: _(
            "{names} left the game. Their seat stays open: wait for them to come back, or leave."
        ).format(names=names),
        lambda: _("Leave"),
        lambda: _("Wait"),
    )


def continue_kept(moves: int) -> Choice:
    return Choice(
        lambda: ngettext(
            "Your unfinished network game is still here ({n} move). Continue it, with "
            "the same code, or start a new one?",
            "Your unfinished network game is still here ({n} moves). Continue it, with "
            "the same code, or start a new one?",
            moves,
        ).format(n=moves),
        lambda: _("Continue"),
        lambda: _("New game"),
        safe=True,
    )


def leaving(hosting: bool) -> Choice:
    """Leave a game under way? A host's leaving ends it for everyone; a joiner's seat stays open."""
    if hosting:
        return Choice(_("Leave and end this network game for everyone?"), _("End the game"), _("Stay"))
    return Choice(
        _(
            "Leave this network game? Your seat stays open: the others can wait for you, and the same "
            "join command brings you back."
        ),
        _("Leave"),
        _("Stay"),
    )


def said(message: ServerMessage) -> str | None:
    """What a word from the server that is only told (not asked) says; None for what says nothing."""
    match message:
        case RematchRequestMessage(name=name, vote=False):
            return _("{name} offers a rematch; waiting for the others to answer.").format(
                name=printable(name)[:40]
            )
        case UndoRequestMessage(name=name, vote=False):
            return _("{name} asks to undo; waiting for the others to answer.").format(
                name=printable(name)[:40]
            )
        case RematchResultMessage(accepted=False):
            return _("No rematch: {reason}.").format(reason=shorten(message.text, 80))
        case RematchResultMessage():
            return None
        case UndoResultMessage(accepted=accepted):
            text = _("Undo accepted: {reason}.") if accepted else _("Undo declined: {reason}.")
            return text.format(reason=shorten(message.text, 80))
    return None


@dataclass(frozen=True)
class Refusal:
    """Why a move is not sent, as a notice says it."""

    text: str
    title: str | None = None
    timeout: float = 2


def refusal(game: RemoteGame | None, lost: NetError | None, move: Move) -> Refusal | None:
    """Why ``move`` cannot be sent from here now (None: it can; the server checks again)."""
    if game is None or game.state is None or lost is not None:
        return Refusal(_("Not connected to the game."))
    if game.state.is_over:  # the keys the game-over dialog gave, which work at the board too
        return Refusal(_("The game is over: ctrl+r for a rematch, ctrl+n for a new game."), timeout=4)
    try:
        game.check(move)
    except NotYourTurnError as problem:
        text = explain(problem)
        return Refusal(text[:1].upper() + text[1:200] + ".")
    except IllegalMoveError as error:
        return Refusal(refused(error), _("Move refused"), 3)
    return None
