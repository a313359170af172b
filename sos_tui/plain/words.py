"""The sentences of line mode: pure functions of a position and its seats, in the player's language.

Every sentence is a whole line a screen reader can say: words and cell names, no symbols. Names
are data: shown through ``printable``, never acted on.
"""

from __future__ import annotations

from sos_tui.engine import (
    COLUMNS,
    GameState,
    Mode,
    Move,
    PlayerInfo,
    SosLine,
    Termination,
    cell_name,
    ending_text,
    printable,
    shorten,
)
from sos_tui.i18n import N_, _, bot_label, mode_name, ngettext
from sos_tui.session.timing import clock_text

DIRECTIONS = {(0, 1): N_("across"), (1, 0): N_("down"), (1, 1): N_("diagonally down to the right"),
              (1, -1): N_("diagonally down to the left")}
JUDGEMENTS = {"inaccuracy": N_("an inaccuracy"), "mistake": N_("a mistake"), "blunder": N_("a blunder")}


def names(seats: tuple[PlayerInfo, ...]) -> list[str]:
    return [printable(seat.name) for seat in seats]


def quoted(text: str) -> str:
    """What the player typed, said back: escaped and at most 40 characters."""
    return shorten(printable(text), 40)


def unreadable(line: str) -> str:
    """Why an input line (a ``lines.BadLine``) is no command."""
    return _("That line is too long to be a command.") if line == "long" \
        else _("That line is not readable text (it is not UTF-8).")


def listed(items: list[str]) -> str:
    """``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def start(state: GameState, seats) -> str:
    text = _("A {size} by {size} game, {mode} mode: {players}.") if state.mode is Mode.GENERAL \
        else _("A {size} by {size} game, {mode} mode, first SOS wins: {players}.")
    players = [bot_label(name) if seat.bot else name for seat, name in zip(seats, names(seats), strict=True)]
    return text.format(size=state.size, mode=mode_name(state.mode), players=listed(players))


def wrote(seats, mover: int, move: Move) -> str:
    return _("{name} wrote {letter} at {cell}.").format(
        name=names(seats)[mover], letter=move.letter, cell=cell_name(move.row, move.col))


def sos_cells(line: SosLine) -> str:
    """``a1, b2, c3, diagonally down to the right``."""
    (r1, c1), _middle, (r3, c3) = line.cells
    way = DIRECTIONS[((r3 > r1) - (r3 < r1), (c3 > c1) - (c3 < c1))]
    return _("{cells}, {direction}").format(
        cells=", ".join(cell_name(*cell) for cell in line.cells), direction=_(way))


def sos(seats, line: SosLine) -> str:
    return _("SOS for {name}: {cells}.").format(name=names(seats)[line.player], cells=sos_cells(line))


def score(state: GameState, seats) -> str:
    scores = ", ".join(f"{name} {points}" for name, points in zip(names(seats), state.scores, strict=True))
    return _("Score: {scores}.").format(scores=scores)


def next_up(state: GameState, seats, scored: bool, computer: bool) -> str:
    """Who moves next: the line that asks a person here to move."""
    name = names(seats)[state.to_move]
    if computer:
        return _("{name} is thinking.").format(name=name)
    return (_("{name} moves again.") if scored else _("{name} to move.")).format(name=name)


def result(state: GameState, seats) -> str:
    shown = names(seats)
    outcome = state.outcome
    if not outcome.has_result:
        return _("Game over: aborted, with no result.")
    if outcome.winner is not None:
        text = _("Game over: {name} wins.").format(name=shown[outcome.winner])
    else:
        text = _("Game over: a draw between {names}.").format(
            names=listed([shown[i] for i in outcome.winners]))
    how = ending_text(state, shown, _)
    return text + " " + _("How it ended: {how}.").format(how=how) if how else text


def clocks(clocks, state: GameState, seats, now: int) -> str:
    """``Time left: Ana 4:59, Bo 5:00 (to move).``: each seat's time, the low ones and those out said."""
    parts = []
    for seat, name in enumerate(names(seats)):
        part = _("{name} {time}").format(name=name, time=clock_text(clocks.remaining(seat, now)))
        if state.is_out(seat):
            part += " " + _("(out)")
        elif not state.is_over and seat == clocks.running:  # none runs before a network game starts
            part += " " + (_("(to move, paused)") if clocks.paused else _("(to move)"))
        elif clocks.low(seat, now):
            part += " " + _("(low)")
        parts.append(part)
    return _("Time left: {times}.").format(times=", ".join(parts))


def low_time(clocks, seats, seat: int, now: int) -> str:
    """The one warning a seat gets when its time is low."""
    return _("{name}, your time is running out: {time} left.").format(
        name=names(seats)[seat], time=clock_text(clocks.remaining(seat, now)))


DROPPED = {Termination.RESIGN: N_("{name} resigned."), Termination.TIME: N_("{name} ran out of time."),
           Termination.ABANDON: N_("{name} left the game.")}


def dropped(state: GameState, seats, seat: int) -> str:
    """``Bo resigned.``, and who plays on when the game goes on."""
    shown = names(seats)
    text = _(DROPPED[state.drops[-1].why]).format(name=shown[seat])
    if state.is_over:
        return text
    on = _("The game goes on without {name}: {players}.").format(
        name=shown[seat], players=listed([shown[p] for p in state.still_in]))
    return f"{text} {on}"


def ratings(seats, told) -> str:
    """``Rated: Ana 1523? (+23), Bo 1477? (-23).`` after a rated network game (``told``: each
    seat's ``protocol.SeatRating``); "?" marks a rating still provisional."""
    shown = names(seats)
    return _("Rated: {ratings}.").format(
        ratings=", ".join(f"{shown[seat]} {rating.text}" for seat, rating in enumerate(told) if rating))


def cells_of(state: GameState, cells) -> str:
    """The letters of ``cells`` in order, runs of empty cells counted: ``S, O, 2 empty``."""
    parts, empties = [], 0
    for row, col in cells:
        letter = state.cell(row, col)
        if letter is None:
            empties += 1
            continue
        if empties:
            parts.append(_empty(empties))
            empties = 0
        parts.append(letter)
    if empties:
        parts.append(_empty(empties))
    return ", ".join(parts)


def _empty(n: int) -> str:
    return _("empty") if n == 1 else ngettext("{n} empty", "{n} empty", n).format(n=n)


def row(state: GameState, r: int) -> str:
    return _("Row {number}: {cells}.").format(
        number=r + 1, cells=cells_of(state, [(r, c) for c in range(state.size)]))


def column(state: GameState, c: int) -> str:
    return _("Column {letter}: {cells}.").format(
        letter=COLUMNS[c], cells=cells_of(state, [(r, c) for r in range(state.size)]))


def board(state: GameState) -> list[str]:
    summary = ngettext("The board is {size} by {size}, columns a to {last}, with {n} empty cell.",
                       "The board is {size} by {size}, columns a to {last}, with {n} empty cells.",
                       state.empty_cells)
    return [summary.format(size=state.size, last=COLUMNS[state.size - 1], n=state.empty_cells),
            *(row(state, r) for r in range(state.size))]


def cell(state: GameState, seats, where: tuple[int, int]) -> str:
    """``b2: O, written by Ana on move 3; SOS for Ana: a1, b2, c3, across.``"""
    letter = state.cell(*where)
    name = cell_name(*where)
    if letter is None:
        return _("{cell} is empty.").format(cell=name)
    number = next(i for i, move in enumerate(state.moves) if (move.row, move.col) == where)
    text = _("{cell}: {letter}, written by {name} on move {number}.").format(
        cell=name, letter=letter, name=names(seats)[state.movers[number]], number=number + 1)
    return " ".join([text, *(sos(seats, line) for line in state.lines if where in line.cells)])


def around(state: GameState, where: tuple[int, int]) -> str:
    r, c = where
    near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < state.size and 0 <= c + dc < state.size]
    return _("Around {cell}: {cells}.").format(cell=cell_name(r, c), cells=", ".join(
        f"{cell_name(*rc)} {state.cell(*rc) or _('empty')}" for rc in near))


def empty(state: GameState) -> str:
    cells = [cell_name(i // state.size, i % state.size) for i, x in enumerate(state.board) if x == "."]
    if not cells:
        return _("No cell is empty.")
    return ngettext("{n} empty cell: {cells}.", "{n} empty cells: {cells}.", len(cells)).format(
        n=len(cells), cells=", ".join(cells))


def move_line(state: GameState, seats, index: int) -> str:
    move = state.moves[index]
    points = state.points_by_move[index]
    text = _("Move {number}: {name} wrote {letter} at {cell}.").format(
        number=index + 1, name=names(seats)[state.movers[index]], letter=move.letter,
        cell=cell_name(move.row, move.col))
    if points:
        text += " " + ngettext("It made {n} SOS.", "It made {n} SOS.", points).format(n=points)
    return text


def review_line(review, seats) -> str:
    """One key moment of a review: the move, how bad, what it cost, the better move."""
    loss = review.points
    if review.mode is Mode.GENERAL and review.players == 2:
        cost = ngettext("it gave away {n} in margin", "it gave away {n} in margin", loss)
    elif review.mode is Mode.GENERAL:
        cost = ngettext("it gave away {n} point", "it gave away {n} points", loss)
    else:
        cost = ngettext("it gave away {n} result step", "it gave away {n} result steps", loss)
    if not review.exact:
        cost = _("{cost}, roughly").format(cost=cost)
    return _("Move {number}, {name} wrote {letter} at {cell}, was {judgement}: {cost}; "
             "{best_letter} at {best_cell} was best.").format(
        number=review.index + 1, name=names(seats)[review.player], letter=review.move.letter,
        cell=cell_name(review.move.row, review.move.col), judgement=_(JUDGEMENTS[review.judgement]),
        cost=cost.format(n=loss), best_letter=review.best.letter,
        best_cell=cell_name(review.best.row, review.best.col))


def lobby_bot(number: int, bot) -> str:
    """One bot of a server's lobby (a ``LobbyBot``): ``Bot 1: Randy (bot), engine Random, 3 of 4
    games free.``"""
    text = _("Bot {number}: {name}, engine {engine}, {free} of {games} games free.") if bot.engine \
        else _("Bot {number}: {name}, {free} of {games} games free.")
    return text.format(number=number, name=bot_label(printable(bot.name)), engine=printable(bot.engine or ""),
                       free=bot.free, games=bot.games)


def lobby_room(number: int, room) -> str:
    """One open game of a server's lobby (a ``LobbyRoom``):
    ``2: game 7f3kq-x9m2c, 6 by 6, general mode, 1 of 2 seats free, Ana waiting.`` (a rated
    game: ``Rated: Ana (1523) waiting.``)"""
    text = _("{number}: game {code}, {size} by {size}, {mode} mode, {free} of {seats} seats free, "
             "{names} waiting.") if room.waiting \
        else _("{number}: game {code}, {size} by {size}, {mode} mode, {free} of {seats} seats free.")
    text = text.format(number=number, code=room.room, size=room.size, mode=mode_name(room.mode),
                       free=room.free, seats=room.seats, names=listed([printable(n) for n in room.people]))
    return " ".join((text, _("Rated game."))) if room.rated else text
