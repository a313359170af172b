"""``sos-tui games``: this player's network games in progress, from the seat tokens kept in the
data folder, each server asked at once (a ``peek``: nobody's seat is taken, nobody is told), in
a bounded time; ``--json``; opening one; and the setup screen's count of games waiting for you."""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest

from sos_tui.cli import main
from sos_tui.engine import Move, Termination
from sos_tui.engine.clock import TimeControl
from sos_tui.net import Server, TokenStore
from sos_tui.net.games import standings, waiting_for_you
from sos_tui.net.tokens import SeatKey

from .support.helpers import HandTime, free_port, play, running, seated

PEOPLE = [{"kind": "remote"}, {"kind": "remote"}]


async def table(server: Server, mine: TokenStore, clock: str | None = None, me_first: bool = True):
    """A started two-person room: this player (``mine``'s tokens) and a friend; who sits first."""
    room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse(clock) if clock else None)
    url = server.url(room)
    if me_first:
        me, friend = await seated(url, "Ana", mine), await seated(url, "Bo", TokenStore())
    else:
        friend, me = await seated(url, "Cy", TokenStore()), await seated(url, "Ana", mine)
    await me.until(lambda: me.game.phase == "playing")
    return room, me, friend


async def test_the_games_in_progress_say_whose_turn_and_the_time_left_and_leave_out_the_rest():
    mine = TokenStore()
    async with running(time=HandTime()) as server:
        _first, ana, bo = await table(server, mine, clock="5+0")  # Ana to move, 5:00 each
        _second, cy, ana2 = await table(server, mine, me_first=False)  # Cy to move
        over, ana3, dee = await table(server, mine)
        await play(ana3, [dee], "S a1")
        over.session.drop(1, Termination.RESIGN)
        await ana3.until(lambda: ana3.game.state.is_over)
        mine.keep(SeatKey.player(f"ws://127.0.0.1:{server.port}/00000-00000", "ana"), "nobody's")  # gone
        mine.keep(SeatKey.player(f"ws://127.0.0.1:{free_port()}/00000-00001", "ana"), "x")  # no server there
        seen = len(bo.seen)

        found = await standings(mine, timeout=3)

        assert [s.url.rsplit("/", 1)[1] for s in found if s.state is not None] == [
            server.url(_second).rsplit("/", 1)[1],
            server.url(_first).rsplit("/", 1)[1],
        ]  # newest first
        unreachable = [s for s in found if s.state is None]
        assert len(unreachable) == 1 and "cannot" in unreachable[0].problem
        second, first = [s for s in found if s.state is not None]
        assert first.your_turn and first.names == ("Ana", "Bo") and first.player == "Ana"
        assert 299_000 <= first.time_left(first.received) <= 300_000
        assert not second.your_turn and second.to_move == "Cy" and second.time_left(0) is None
        assert waiting_for_you(found) == 1
        data = first.to_dict(first.received)
        assert data["clock"] == "5+0" and data["your_turn"] and data["to_move"] == "Ana"
        # asking took nobody's seat and told nobody anything
        assert ana.game.connected and ana.lost is None and len(bo.seen) == seen
        for player in (ana, bo, cy, ana2, ana3, dee):
            await player.close()


def test_games_with_nothing_kept_says_so_and_a_number_past_the_list_is_refused(capsys):
    assert main(["games"]) == 0
    assert capsys.readouterr().out == "No network games in progress.\n"
    assert main(["games", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["games", "3"]) == 2
    assert "there is no game 3: the list has 0 games" in capsys.readouterr().err
    assert main(["games", "0"]) == 2


class Serving:
    """A server on an event loop of its own thread, for a command run in this one."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = Server(time=HandTime())

    def call(self, coroutine, timeout: float = 10):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def serving():
    serving = Serving()
    serving.call(serving.server.start("127.0.0.1", 0))
    yield serving
    serving.stop()


def test_games_lists_the_kept_seats_game_and_opens_it_in_line_mode(serving, capsys, monkeypatch):
    server = serving.server

    async def sit():
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("1d"))
        ana = await seated(server.url(room), "Ana", TokenStore.default())
        bo = await seated(server.url(room), "Bo", TokenStore())
        await bo.until(lambda: bo.game.phase == "playing")
        await ana.close()  # Ana goes; her token stays in the data folder
        return room, bo

    room, bo = serving.call(sit())
    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 network game in progress, 1 waiting for your move:"
    shown = r"  1\. Ana vs Bo · 3x3 general · 1d · your move, (1d 00:00|23:59:59) left · ws://127\.0\.0\.1:\d+/\S+"
    assert re.fullmatch(shown, out[1]), out[1]
    assert out[2] == "Open one with: sos-tui games N"
    assert main(["games", "--json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)
    assert game["url"] == server.url(room) and game["your_turn"] and game["clock"] == "1d"

    from .support.helpers import Keyboard

    keyboard = Keyboard(monkeypatch)
    keyboard.type("S b2", "quit")
    assert main(["games", "--open", "1", "--plain"]) == 0
    assert "Ana wrote S at b2." in capsys.readouterr().out
    assert serving.call(_moves(room)) == (Move.parse("S b2"),)
    serving.call(bo.close())


async def _moves(room):
    return room.session.record.moves


async def test_the_setup_screen_counts_the_games_waiting_for_your_move_in_the_background(serving):
    from sos_tui.app import SosApp
    from sos_tui.app.screens.setup import SetupScreen

    from .support.helpers import wait_for

    server = serving.server

    async def sit():
        rooms = [server.create_room(3, "general", PEOPLE) for _ in range(2)]
        people = []
        for room in rooms:
            people.append(await seated(server.url(room), "Ana", TokenStore.default()))
            people.append(await seated(server.url(room), "Bo", TokenStore()))
        await people[-1].until(lambda: people[-1].game.phase == "playing")
        for player in people:
            await player.close()

    serving.call(sit())
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        label = app.screen.query_one("#games-waiting")
        await wait_for(pilot, lambda: app.screen.games_waiting == 2, what="the count of games waiting")
        assert str(label.render()) == "2 network games wait for your move: sos-tui games lists them"
        assert label.display
