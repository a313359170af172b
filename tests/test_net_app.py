"""The network game screen in the app: hosting with a seat at this terminal while a friend joins,
keys only on your turn, undo as a request, a friend's drop, joining a server, a lost server with
the offer to reconnect, a wrong code. Servers listen on 127.0.0.1, port 0, and are stopped by the
test (or by the app's screen when it closes)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerState

from sos_tui.app import SosApp
from sos_tui.app.dialogs import Choice
from sos_tui.app.screens.net_game import NetGameScreen
from sos_tui.engine import Move, Seat, SeatKind
from sos_tui.net import NetError, RemoteGame, Server, TokenStore
from sos_tui.net.protocol import new_code
from sos_tui.net.run import HostPlan, JoinPlan

from .support.helpers import FirstMove, footer_shows, on_a_game, recording, running, wait_for

if TYPE_CHECKING:
    from sos_tui.net.room import Room


class Friend:
    """A RemoteGame with its updates read in the background."""

    def __init__(self, url: str, name: str, tokens: TokenStore | None = None) -> None:
        self.game = RemoteGame(url, name, tokens=tokens or TokenStore())
        self.task: asyncio.Task | None = None

    async def join(self) -> Friend:
        """Join (or, after a drop or a leave, come back with the same token)."""
        await self.game.connect()
        self.task = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for _ in self.game.updates():
                pass
        except NetError:
            pass

    async def leave(self) -> None:
        await self.game.close()
        if self.task is not None:
            await asyncio.wait_for(self.task, 5)


def status(app) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, NetGameScreen))
    return str(screen.query_one("#net-status").render())


@dataclass
class Table:
    """A network game the app joined (``joined``): its server and room, the friends seated
    before it (by name), the app and its pilot, and the network screen."""

    server: Server
    room: Room
    friends: dict[str, Friend]
    app: SosApp
    pilot: Pilot
    screen: NetGameScreen


@asynccontextmanager
async def joined(me: str = "Bo", friends: tuple[str, ...] = ("Ana",), size: tuple[int, int] = (100, 32)):
    """A server (port 0) with a 3x3 game of two remote seats, ``friends`` joined first, then the
    app joined as ``me`` (a spectator when the seats are taken), shown once the game is being
    played. The friends leave and the server stops afterwards."""
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        seated = {name: await Friend(server.url(room), name).join() for name in friends}
        try:
            app = recording(SosApp(network=JoinPlan(server.url(room), me)))
            async with app.run_test(size=size) as pilot:

                def playing() -> bool:
                    screen = app.screen
                    return (isinstance(screen, NetGameScreen) and screen.game is not None
                            and screen.state is not None and screen.game.phase == "playing")

                await wait_for(pilot, playing)
                yield Table(server, room, seated, app, pilot, app.screen)
        finally:
            for friend in seated.values():
                await friend.leave()


async def test_host_plays_its_seat_here_while_a_friend_joins_asks_to_undo_and_drops():
    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=0)
    app = recording(SosApp(network=plan, computer_delay=0))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        screen = app.screen
        assert screen.net.join_url.startswith("ws://127.0.0.1:")
        assert f"sos-tui join {screen.net.join_url} --name NAME" in status(app)
        assert "Waiting for 1 more player" in status(app)
        await pilot.press("s")
        assert app.notices[-1].message == "The game starts when every seat is taken."
        bo = await Friend(screen.net.join_url, "Bo").join()
        await wait_for(pilot, lambda: screen.game.phase == "playing" and "Your turn" in status(app))
        await pilot.press("s")  # S at a1, from the keyboard
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1
                    and len(screen.state.moves) == 1)
        await pilot.press("right", "o")  # not Ana's turn: refused here, nothing sent
        assert app.notices[-1].message == "Wait for Bo to move."
        await bo.game.play(Move.parse("O b1"))
        await wait_for(pilot, lambda: len(screen.state.moves) == 2)
        board = screen.board
        rows = [board.render_line(y).text for y in range(board.size.height)]
        assert any("S   O" in row for row in rows)
        await bo.game.request_undo()
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1)
        await wait_for(pilot, lambda: len(screen.state.moves) == 1)
        await bo.game.request_undo()  # then Bo moves instead: the question goes away unanswered
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await bo.game.play(Move.parse("O c3"))
        await wait_for(pilot, lambda: app.screen is screen and len(screen.state.moves) == 2)
        assert app.notices[-1].message == "Undo declined: a move was played."
        await bo.leave()
        await wait_for(pilot, lambda: "Waiting for Bo to reconnect" in status(app))
        assert app.session is None  # the local game screen was never used
    assert screen.net.host is None  # the screen stopped its server


async def test_a_connection_back_by_itself_is_said_and_leaves_no_dialog_in_the_way():
    # the reconnect loop itself is tested without a screen in test_netsession.py
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
        app = recording(SosApp(network=JoinPlan(server.url(room), "Ana"), computer_delay=0))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(
                pilot, lambda: isinstance(app.screen, NetGameScreen) and "Your turn" in status(app)
            )
            screen = app.screen
            await room.seats[0].client.ws.close()  # the connection drops; the room and the seat stay
            await wait_for(pilot, lambda: "Reconnected." in [n.message for n in app.notices])
            assert app.screen is screen and "Your turn" in status(app)
            assert not any(isinstance(s, Choice) for s in app.screen_stack)  # no dialog in the way
    finally:
        await server.stop()


async def test_a_seat_taken_up_from_another_terminal_is_let_go_not_fought_over():
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
        app = recording(SosApp(network=JoinPlan(server.url(room), "Ana"), computer_delay=0))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(
                pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None
            )
            screen = app.screen
            await wait_for(pilot, lambda: "Your turn" in status(app))
            elsewhere = RemoteGame(server.url(room), "Ana", token=screen.game.token, tokens=TokenStore())
            await elsewhere.connect()  # the same player, from another terminal
            try:
                await wait_for(pilot, lambda: isinstance(app.screen, Choice))
                assert "played from another terminal now" in app.screen.text  # not tried again: see
                assert elsewhere.my_seats == (0,) and screen.net.attempt == 0  # test_netsession.py
            finally:
                await elsewhere.close()
    finally:
        await server.stop()


async def test_a_game_gone_from_its_server_can_be_played_on_here():
    from sos_tui.app.screens.game import GameScreen

    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    port = server.port
    room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
    app = recording(SosApp(network=JoinPlan(server.url(room), "Ana"), computer_delay=0))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        screen = app.screen
        await wait_for(pilot, lambda: "Your turn" in status(app))
        await pilot.press("s")
        await wait_for(pilot, lambda: len(screen.state.moves) == 2)
        await server.stop()  # the server stops: the client keeps trying by itself
        await wait_for(pilot, lambda: "Reconnecting… (attempt" in status(app))
        again = Server(computer=FirstMove())  # back on the same port, without the game
        await again.start("127.0.0.1", port)
        try:
            await pilot.press("ctrl+r")  # try now
            await wait_for(pilot, lambda: isinstance(app.screen, Choice))
            assert app.screen.text.startswith("The game is gone from its server: no game with that code")
            await pilot.click("#yes")  # play on here
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
            assert [str(m) for m in app.state.moves] == [str(m) for m in screen.game.record.moves]
            assert [p.name for p in app.game.players] == ["Ana", "Computer 2"]
        finally:
            await again.stop()


async def test_a_join_from_the_command_line_that_cannot_start_ends_with_the_reason_and_status_2():
    # `sos-tui join URL`: a wrong code, or nothing listening, ends the app at once with one
    # sentence for the terminal (exit status 2), not a dialog over an empty game
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        app = SosApp(network=JoinPlan(f"ws://127.0.0.1:{server.port}/{new_code()}", "Ana"))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(pilot, lambda: not app.is_running)
        assert app.return_code == 2 and "no game with that code" in app.return_value
    finally:
        await server.stop()
    app = SosApp(network=JoinPlan(f"ws://127.0.0.1:{server.port}/{new_code()}", "Ana"))  # stopped
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_code == 2
    assert app.return_value == (f"cannot reach ws://127.0.0.1:{server.port}: nothing is listening there "
                                "(is the game still hosted?)")


async def test_a_wrong_code_typed_in_the_join_dialog_is_said_plainly_and_the_app_stays():
    from sos_tui.app.dialogs import JoinDialog

    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        app = SosApp()
        async with app.run_test(size=(100, 32)) as pilot:
            app.action_join()
            await wait_for(pilot, lambda: isinstance(app.screen, JoinDialog))
            app.screen.query_one("#url").value = f"ws://127.0.0.1:{server.port}/{new_code()}"
            app.screen.query_one("#name").value = "Ana"
            await pilot.click("#join")
            await wait_for(pilot, lambda: isinstance(app.screen, Choice))
            assert "no game with that code" in app.screen.text
            await pilot.click("#yes")  # Leave
            await wait_for(pilot, lambda: not isinstance(app.screen, (Choice, NetGameScreen)))
            assert app.is_running
    finally:
        await server.stop()


async def test_a_spectator_watches_and_its_keys_do_nothing():
    async with joined("Cy", ("Ana", "Bo")) as table:
        app, pilot = table.app, table.pilot
        assert "You are watching" in status(app)
        await pilot.press("s")
        assert app.screen.state.moves == () and not app.notices  # no letter keys for a spectator
        await table.friends["Ana"].game.play(Move.parse("S b2"))
        await wait_for(pilot, lambda: len(app.screen.state.moves) == 1)


async def test_the_players_see_how_many_people_watch():
    async with joined("Ana", ("Bo",), size=(80, 24)) as table:
        app, pilot, url = table.app, table.pilot, table.server.url(table.room)
        await wait_for(pilot, lambda: "Bo's turn" in status(app))
        assert "watching" not in status(app)
        watchers = [await Friend(url, None).join() for _ in range(2)]
        await wait_for(pilot, lambda: "Bo's turn.  2 people are watching." in status(app))
        await watchers[0].leave()
        await wait_for(pilot, lambda: "Bo's turn.  1 person is watching." in status(app))
        await watchers[1].leave()
        await wait_for(pilot, lambda: "watching" not in status(app))


async def test_the_setup_screen_offers_host_and_join():
    from sos_tui.app.dialogs import JoinDialog
    from sos_tui.app.screens.setup import SetupScreen

    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        app = SosApp()
        hosted = []
        app.host_game = hosted.append
        async with app.run_test(size=(110, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.click("#host")
            assert [p.name for p in hosted[0].players] == ["Player 1", "Player 2"]
            await pilot.click("#join")
            await wait_for(pilot, lambda: isinstance(app.screen, JoinDialog))
            app.screen.query_one("#url").value = "http://nope"
            await pilot.click("#join")
            assert "starts with ws://" in str(app.screen.query_one("#problem").render())
            app.screen.query_one("#url").value = server.url(room)
            app.screen.query_one("#name").value = "Ana"
            await pilot.click("#name")
            await pilot.press("enter")
            await wait_for(
                pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None
            )
            assert app.screen.game.my_seats == (0,) and room.seats[0].seat.name == "Ana"
            await pilot.press("ctrl+l")  # leave: back to the setup screen, the app goes on
            await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
    finally:
        await server.stop()


async def test_hosting_from_the_setup_asks_first_then_seats_the_first_person_here_and_friends_elsewhere():
    from sos_tui.app.screens.host_dialog import HostDialog
    from sos_tui.engine import GameRecord, Mode, PlayerInfo

    app = SosApp()  # what the setup screen's Host button does
    async with app.run_test(size=(100, 30)) as pilot:
        record = GameRecord(4, Mode.SIMPLE, (PlayerInfo("Ana"), PlayerInfo("CPU", "computer", "easy"),
                                             PlayerInfo("Bo")))
        app.host_game(record)
        await wait_for(pilot, lambda: isinstance(app.screen, HostDialog))
        dialog = app.screen
        assert dialog.query_one("#place-0").value == "here" and dialog.query_one("#place-2").value == "remote"
        assert "Only players on this computer can join" in str(dialog.query_one("#note").render())
        await pilot.press("escape")  # nothing was hosted: nothing listens
        await wait_for(pilot, lambda: not isinstance(app.screen, HostDialog))
        assert not any(isinstance(screen, NetGameScreen) for screen in app.screen_stack)
        app.host_game(record)
        await wait_for(pilot, lambda: isinstance(app.screen, HostDialog))
        app.screen.query_one("#port").value = "70000"
        await pilot.click("#host")
        assert "The port is a number from 1 to 65535" in str(app.screen.query_one("#problem").render())
        app.screen.query_one("#port").value = "0"  # any free port
        await pilot.click("#port")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        room = next(iter(app.screen.net.host.server.rooms.values()))
        assert [(s.seat.kind, s.seat.name) for s in room.seats] == [("human", "Ana"), ("computer", "CPU"),
                                                           ("remote", None)]
        assert app.screen.game.my_seats == (0,) and "Waiting for 1 more player" in status(app)


async def test_host_with_a_server_creates_the_game_there_and_plays_its_seat_here():
    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    try:
        plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)),
                        server_url=f"ws://127.0.0.1:{server.port}")
        app = SosApp(network=plan)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(
                pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None
            )
            screen = app.screen
            assert screen.net.host is None and screen.net.join_url.startswith(f"ws://127.0.0.1:{server.port}/")
            bo = await Friend(screen.net.join_url, "Bo").join()
            await wait_for(pilot, lambda: "Your turn" in status(app))
            await pilot.press("o")
            await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1)
            await bo.leave()
    finally:
        await server.stop()


async def test_hosting_needs_two_people_at_the_table_and_a_friends_seat():
    from sos_tui.app.screens.host_dialog import default_places, plan_for
    from sos_tui.engine import GameRecord, Mode, PlayerInfo

    app = recording(on_a_game())
    async with app.run_test(size=(100, 30)) as pilot:
        app.host_game(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("CPU", "computer", "easy"))))
        await pilot.pause()
        assert app.notices[-1].message == "To host, leave at least two seats to people: yours and a friend's."
    record = GameRecord(5, Mode.SIMPLE, (PlayerInfo("Ana"), PlayerInfo("Bo"), PlayerInfo("Cy")))
    plan = plan_for(record, default_places(record), "0.0.0.0", "0", "")
    assert (plan.size, plan.mode, plan.bind, plan.port) == (5, "simple", "0.0.0.0", 0)
    assert [s.kind for s in plan.seats] == ["human", "remote", "remote"]
    plan = plan_for(record, ["here", "here", "remote"], "127.0.0.1", "7531", "")  # two at this table
    assert [s.kind for s in plan.seats] == ["human", "human", "remote"]
    with pytest.raises(ValueError, match="Let a friend join"):
        plan_for(record, ["here", "here", "here"], "127.0.0.1", "7531", "")
    with pytest.raises(ValueError, match="Server: "):
        plan_for(record, default_places(record), "127.0.0.1", "7531", "http://example.org")


async def test_a_public_web_servers_tab_hosts_for_its_other_tabs_only(monkeypatch):
    from sos_tui.app.screens.host_dialog import HostDialog, default_places, plan_for
    from sos_tui.engine import GameRecord, Mode, PlayerInfo
    from sos_tui.storage.paths import CONFINE_VAR

    monkeypatch.setenv(CONFINE_VAR, "1")
    record = GameRecord(5, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")))
    with pytest.raises(ValueError, match="hosts games for its own tabs only"):
        plan_for(record, default_places(record), "0.0.0.0", "0", "")
    assert plan_for(record, default_places(record), "127.0.0.1", "0", "").bind == "127.0.0.1"
    assert plan_for(record, default_places(record), "0.0.0.0", "0", "ws://example.org:7531").server_url
    app = on_a_game()
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(HostDialog(record))
        await pilot.pause()
        bind = app.screen.query_one("#bind")
        assert [value for _label, value in bind._options] == ["127.0.0.1"]
        assert "other tabs of this web page" in str(app.screen.query_one("#note").render())


async def test_a_network_game_offers_only_the_keys_that_work_there_and_a_spectator_fewer():
    from sos_tui.app.screens.help import HelpScreen

    async with joined("Ana", ("Bo",)) as table:
        app, pilot = table.app, table.pilot
        assert app.screen.game.my_seats
        footer = await footer_shows(pilot, app, "Undo")
        assert "Leave" in footer and "S↔O" in footer and "Hint" not in footer, footer
        await pilot.press("H")  # bound to nothing here: no "not here" notice either
        assert not app.notices
        await pilot.press("question_mark")
        described = {description for _, description in app.screen.keys}
        assert isinstance(app.screen, HelpScreen) and {"Undo", "Leave"} <= described
        assert not described & {"Hint", "Redo", "Pause / resume (the computers and the clocks)", "Rematch"}
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen))
        offered = {command.title for command in app.get_system_commands(app.screen)}
        assert "Undo" in offered and not offered & {"Redo", "Rematch", "Replay"}, offered  # palette
    async with joined("Cy", ("Bo", "Di")) as table:
        cy, pilot = table.app, table.pilot
        assert not cy.screen.game.my_seats  # both seats are taken: Cy watches
        footer = await footer_shows(pilot, cy, "Leave")
        assert not any(key in footer for key in ("Undo", "Hint", "S↔O")), footer
        await pilot.press("s")  # a spectator's letter keys write nothing
        assert cy.screen.state.moves == () and not cy.notices


async def test_a_network_game_ends_and_rematches_with_the_other_player_starting():
    from sos_tui.app.screens.game_over import GameOverScreen

    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=0)
    app = recording(SosApp(network=plan, computer_delay=0))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        screen = app.screen
        bo = await Friend(screen.net.join_url, "Bo").join()
        await wait_for(pilot, lambda: screen.game.phase == "playing")
        first = screen.game.record.game_id
        while not screen.game.state.is_over:  # O's everywhere: nobody scores, turns alternate
            state = screen.game.state
            move = next(m for m in state.legal_moves() if m.letter == "O")
            if state.to_move == 0:
                screen.board.cursor = (move.row, move.col)
                await pilot.press("o")
            else:
                await bo.game.play(move)
            played = len(state.moves) + 1
            await wait_for(pilot, lambda played=played: len(screen.game.state.moves) == played)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")  # back to the board, where the dialog's ctrl+r still offers one
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("s")  # a letter says what the keys are now
        await wait_for(pilot, lambda: app.notices and app.notices[-1].message.startswith("The game is over"))
        assert app.notices[-1].message == "The game is over: ctrl+r for a rematch, ctrl+n for a new game."
        await pilot.press("ctrl+r")  # offered to Bo, who agrees
        await wait_for(pilot, lambda: bo.game.rematch_request is not None)
        assert bo.game.rematch_request.name == "Ana" and bo.game.rematch_request.vote
        await bo.game.answer_rematch(True)
        await wait_for(pilot, lambda: screen.game.record.game_id != first and screen.game.phase == "playing")
        assert [p.name for p in screen.game.seats] == ["Bo", "Ana"] and screen.game.my_seats == (1,)
        assert app.notices[-1].message == "Rematch: Bo starts." and app.screen is screen
        assert "Bo's turn" in status(app)
        await bo.game.play(Move.parse("S b2"))
        await wait_for(pilot, lambda: "Your turn" in status(app))
        await pilot.press("ctrl+q")  # mid-game, the host is asked first
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "Leave and end this network game for everyone?"
        await pilot.click("#no")  # stay
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: not app.is_running)
    await asyncio.wait_for(bo.task, 5)  # Bo is told at once, and why
    assert bo.game.ended and bo.game.closed_reason == "Ana ended the game"


async def test_a_joiner_is_asked_before_leaving_and_told_when_the_other_player_quits():
    from sos_tui.app.screens.setup import SetupScreen

    async with joined() as table:
        app, pilot, screen = table.app, table.pilot, table.screen
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert "Your seat stays open" in app.screen.text
        await pilot.click("#no")  # stay
        await wait_for(pilot, lambda: app.screen is screen)
        await table.friends["Ana"].game.leave()  # on purpose: Bo is told, and may wait or leave
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == ("Ana left the game. Their seat stays open: wait for them to come "
                                   "back, or leave.")
        await pilot.click("#no")  # wait
        await wait_for(pilot, lambda: app.screen is screen and "Waiting for Ana to reconnect" in status(app))
        assert app.is_running
        await pilot.press("ctrl+n")  # a new game instead: leaving this one is asked first
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert not any(isinstance(s, NetGameScreen) for s in app.screen_stack)


async def test_whoever_asks_for_a_rematch_or_an_undo_is_told_once_and_an_ended_game_says_so():
    async with joined() as table:
        app, pilot, ana = table.app, table.pilot, table.friends["Ana"]
        await ana.game.play(Move.parse("S a1"))
        await wait_for(pilot, lambda: "Your turn" in status(app))
        await pilot.press("u")  # Bo asks; Ana is asked, Bo is told once
        await wait_for(pilot, lambda: ana.game.undo_request is not None)
        await pilot.pause()
        assert [n.message for n in app.notices] == ["Asking the others to agree to an undo…"]
        await table.server.stop("{name} ended the game", name="Ana")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "The game has ended: Ana ended the game."
        assert "The game has ended: Ana ended the game. ctrl+l leaves." in status(app)


async def test_a_host_that_crashed_offers_its_unfinished_game_again_with_the_same_code():
    import socket

    with socket.socket() as probe:  # the same command twice: the same, free, port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=port)
    first = recording(SosApp(network=plan, computer_delay=0))
    async with first.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(first.screen, NetGameScreen) and first.screen.game is not None
        )
        screen = first.screen
        bo = await Friend(screen.net.join_url, "Bo").join()
        await wait_for(pilot, lambda: "Your turn" in status(first))
        await pilot.press("s")
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1)
        await bo.game.play(Move.parse("O b1"))
        await wait_for(pilot, lambda: len(screen.state.moves) == 2)
        url = screen.net.join_url
        host, screen.net.host = screen.net.host, None  # the process dies: nothing is ended on purpose
        await host.stop()
    again = recording(SosApp(network=plan, computer_delay=0))
    async with again.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, Choice))
        assert again.screen.text.startswith("Your unfinished network game is still here (2 moves)")
        await pilot.click("#yes")  # continue
        await wait_for(pilot, lambda: isinstance(again.screen, NetGameScreen)
                       and again.screen.game is not None and again.screen.game.phase == "playing")
        screen = again.screen
        assert screen.net.join_url.rsplit("/", 1)[1] == url.rsplit("/", 1)[1]  # the same code
        assert [str(m) for m in screen.state.moves] == ["S a1", "O b1"] and screen.game.my_seats == (0,)
        await bo.game.connect()  # Bo comes back with his token, to his seat
        assert bo.game.my_seats == (1,)
        await pilot.press("down", "o")
        await wait_for(pilot, lambda: len(screen.state.moves) == 3)
    await bo.game.close()


async def test_a_host_restarted_on_the_data_folder_of_its_joiner_retakes_its_own_seat_and_the_joiner_his():
    """One person, two terminals, one data folder (issue 40): the host and the joiner keep their
    seat tokens in the same net-seats.json, the joiner's last; both are killed mid-game and the
    same two commands run again."""
    import socket

    with socket.socket() as probe:  # the same command twice: the same, free, port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    plan = HostPlan(3, "general", (Seat("Ann"), Seat(None, SeatKind.REMOTE)), port=port)
    first = recording(SosApp(network=plan, computer_delay=0))
    async with first.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(first.screen, NetGameScreen) and first.screen.game is not None
        )
        screen = first.screen
        url = screen.net.join_url
        bo = await Friend(url, "Bo", TokenStore.default()).join()  # the other terminal
        await wait_for(pilot, lambda: "Your turn" in status(first))
        await pilot.press("s")
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1)
        await bo.game.play(Move.parse("O b1"))
        await wait_for(pilot, lambda: len(screen.state.moves) == 2)
        host, screen.net.host = screen.net.host, None  # the host is killed: nothing is ended on purpose
        await host.stop()
    await bo.leave()  # so is the joiner (its seat's lock goes with it)
    again = recording(SosApp(network=plan, computer_delay=0))
    async with again.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, Choice))
        await pilot.click("#yes")  # continue
        await wait_for(pilot, lambda: isinstance(again.screen, NetGameScreen)
                       and again.screen.game is not None and again.screen.game.phase == "playing")
        screen = again.screen
        assert screen.game.my_seats == (0,)  # Ann's seat: not the one whose token was kept last
        bo = await Friend(url, "Bo", TokenStore.default()).join()  # the same join command
        assert bo.game.my_seats == (1,)
        await wait_for(pilot, lambda: "Your turn" in status(again))  # nobody to wait for
        await pilot.press("down", "o")
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 3)
        await bo.game.play(Move.parse("S c3"))
        await wait_for(pilot, lambda: len(screen.state.moves) == 4)
    await bo.leave()


async def test_a_left_the_game_notice_closes_by_itself_once_the_player_is_back():
    plan = HostPlan(3, "general", (Seat("Ann"), Seat(None, SeatKind.REMOTE)), port=0)
    app = recording(SosApp(network=plan, computer_delay=0))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        screen = app.screen
        bo = await Friend(screen.net.join_url, "Bo").join()
        await wait_for(pilot, lambda: "Your turn" in status(app))
        await bo.game.leave()  # on purpose: Ann is asked whether to wait
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text.startswith("Bo left the game.")
        await bo.join()  # Bo is back, with his token
        await wait_for(pilot, lambda: app.screen is screen and "Your turn" in status(app))
        await pilot.press("s")  # the keys reach the board again, not a stale question
        await wait_for(pilot, lambda: bo.game.state is not None and len(bo.game.state.moves) == 1)
    await bo.leave()


async def test_a_question_settled_while_this_terminal_was_away_closes_when_it_is_back():
    async with joined() as table:
        app, pilot, screen, ana = table.app, table.pilot, table.screen, table.friends["Ana"]
        await ana.game.play(Move.parse("S a1"))
        await wait_for(pilot, lambda: len(screen.state.moves) == 1)
        await ana.game.request_undo()
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await table.room.seats[1].client.ws.close()  # Bo's connection drops: the question ends with it
        await wait_for(pilot, lambda: "Reconnected." in [n.message for n in app.notices])
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.game.undo_request is None and "Your turn" in status(app)


@pytest.mark.parametrize("part", ["#board", "#scoreboard", "#log"])
async def test_the_server_talking_while_the_screen_is_taken_down_is_not_an_error(part):
    """The app quitting takes the view down piece by piece while the server still talks: a word
    from it then (here, the one the friend's join brings) finds part of the view gone. It was a
    NoMatches error that ended the app with a traceback (seen once in CI, quitting mid-game)."""
    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=0)
    app = SosApp(network=plan, computer_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None)
        screen = app.screen
        await screen.query_one(part).remove()  # as the app's teardown does, one part first
        bo = await Friend(screen.net.join_url, "Bo").join()
        await wait_for(pilot, lambda: screen.game.phase == "playing")
        await pilot.pause()
        following = [worker for worker in app.workers if worker.group == "net"]
        assert [worker.state for worker in following] == [WorkerState.RUNNING]  # still following the game
        await bo.leave()
