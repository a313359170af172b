"""Clocks on the network: the server's clock is the truth (docs/protocol.md, "Clocks"). Rooms with
a time control, each seat's time in every ``state``, the flag applied by the server's timer, the
increment, lag credit, the clocks kept across a restart, and correspondence rooms. The server's
time is given by the test (``HandTime``, ``FastTime``): nothing sleeps."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from sos_tui.engine import Move, Termination
from sos_tui.engine.clock import DAY_MS, TimeControl
from sos_tui.net import RemoteGame, Server, TokenStore, create_room
from sos_tui.net.protocol import CreateMessage, ErrorMessage, ProtocolError, parse_client, parse_server
from sos_tui.net.store import SqliteRoomStore
from sos_tui.plain import words

from .support.helpers import WAIT, FastTime, HandTime, play, raw_client, running, seated

PEOPLE = [{"kind": "remote"}, {"kind": "remote"}]


def sent(player):
    """The clocks of the last state ``player`` had, as the server sent them."""
    return player.game.clocks


async def pair(server: Server, clock: str, tokens=None):
    """A two-person room with ``clock``, both seated and the game started."""
    room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse(clock))
    url = server.url(room)
    ana_tokens, bo_tokens = tokens or (TokenStore(), TokenStore())
    ana, bo = await seated(url, "Ana", ana_tokens), await seated(url, "Bo", bo_tokens)
    await ana.until(lambda: ana.game.phase == "playing" and ana.game.clocks is not None)
    await bo.until(lambda: bo.game.phase == "playing")
    return room, ana, bo


# -- the wire --------------------------------------------------------------------------------------
def test_create_carries_a_clock_and_a_bad_one_is_refused_with_a_clear_message():
    message = CreateMessage(3, "general", (), clock=TimeControl.parse("5+3"))
    assert message.to_dict()["clock"] == "5+3"
    frame = (
        '{"type": "create", "protocol": 1, "size": 3, "mode": "general", "seats": [{"kind": "remote"}, '
        '{"kind": "remote"}], "clock": "%s"}'
    )
    assert parse_client(frame % "2d", first=True).clock == TimeControl.parse("2d")
    for bad, says in [
        ("5+", "the increment is missing"),
        ("-1+0", "cannot be negative"),
        ("abc", "expected minutes+increment"),
        ("1000000000+0", "from 0.1 to 1440"),
    ]:
        with pytest.raises(ProtocolError, match=re.escape(says)) as refused:
            parse_client(frame % bad, first=True)
        assert refused.value.code == "bad-room"
    untimed = CreateMessage(3, "general", ())
    assert "clock" not in untimed.to_dict()


def test_a_state_without_clocks_or_with_broken_ones_reads_as_untimed():
    state = {
        "type": "state",
        "room": "x",
        "phase": "lobby",
        "size": 3,
        "mode": "general",
        "version": 0,
        "to_move": None,
        "change": "join",
        "move": None,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
        "waiting_for": [],
        "spectators": 0,
        "game": None,
    }
    assert parse_server(json.dumps(state)).clocks is None
    broken = state | {"clocks": {"control": "5+", "remaining_ms": [1, 2], "running": 0}}
    assert parse_server(json.dumps(broken)).clocks is None
    short = state | {"clocks": {"control": "5+0", "remaining_ms": [1], "running": 0}}
    assert parse_server(json.dumps(short)).clocks is None


# -- a timed room ----------------------------------------------------------------------------------
async def test_every_state_carries_the_clocks_and_the_increment_is_added_on_the_server():
    clock = HandTime()
    async with running(time=clock) as server:
        room, ana, bo = await pair(server, "0.5+2")
        assert sent(bo).remaining_ms == (30_000, 30_000) and sent(bo).running == 0
        # a 1 ms round trip, credited nothing: the ping the server sends a seated player measured the
        # machine's load (6 ms under load, a credit of 3 ms; the test below checks the credit)
        room.seats[0].client.ws.latency = 0.001
        clock.passes(4_000)
        await play(ana, [bo], "S a1")
        assert sent(bo).remaining_ms == (28_000, 30_000) and sent(bo).running == 1
        assert bo.game.record.spent_ms == (4_000,) and str(bo.game.record.clock) == "0.5+2"
        assert bo.game.clocks.remaining(0, bo.game.now()) == 28_000  # the client's own, from the state
        await ana.close()
        await bo.close()


async def test_the_lobby_of_a_timed_room_says_its_clock():
    async with running(time=HandTime()) as server:
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("2d"))
        ana = await seated(server.url(room), "Ana", TokenStore())
        assert ana.game.phase == "lobby"
        assert sent(ana).remaining_ms == (2 * DAY_MS, 2 * DAY_MS) and sent(ana).running is None
        game = ana.game
        said = words.clocks(game.clocks, game.state, game.seats, game.now())
        assert said == "Time left: Ana 2d 00:00, (open seat 2) 2d 00:00."  # nobody to move yet
        await ana.close()


async def test_an_old_client_plays_a_timed_room_and_simply_sees_no_clocks():
    async with running(time=HandTime()) as server:
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("1+0"))
        async with raw_client(server.url(room)) as old:
            await old.send({"type": "hello", "protocol": 1, "name": "Old"})  # no minor: revision 0
            assert (await old.recv())["type"] == "welcome"
            assert (await old.recv())["type"] == "state"


async def test_a_network_game_flags_on_the_servers_timer_and_the_other_wins_on_time():
    async with running(time=FastTime(speed=100)) as server:  # 0.1 minute: 60 ms
        room, ana, bo = await pair(server, "0.1+0")
        for player in (ana, bo):
            await player.until(lambda p=player: p.game.state.is_over)
            record = player.game.record
            assert record.termination is Termination.TIME and record.state.outcome.winner == 1
            assert player.game.clocks.remaining_ms[0] == 0 and player.game.clocks.running is None
        assert room.session.record.ending_text() == "Bo won on time"
        await ana.close()
        await bo.close()


async def test_both_players_histories_keep_the_game_lost_on_time():
    from sos_tui.net.netsession import NetSession

    class Kept:
        def __init__(self):
            self.records, self.done = [], asyncio.Event()

        def on_change(self, change):
            self.records.append(change.record)
            self.done.set()

    async with running(time=FastTime(speed=50)) as server:
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("0.1+0"))
        url, keepers, sessions, tasks = server.url(room), [], [], []
        for name in ("Ana", "Bo"):
            keeper, session = Kept(), NetSession.join(url, name, TokenStore())
            session.keep_in(keeper)
            keepers.append(keeper)
            sessions.append(session)
            tasks.append(asyncio.ensure_future(session.run(lambda message: None)))
        await asyncio.wait_for(asyncio.gather(*(k.done.wait() for k in keepers)), WAIT)
        for keeper in keepers:
            assert [r.termination for r in keeper.records] == [Termination.TIME]
            assert keeper.records[0].ending_text() == "Bo won on time"
        for session, task in zip(sessions, tasks, strict=True):
            await session.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def test_a_move_after_the_flag_is_refused_and_the_flag_applied():
    clock = HandTime()
    async with running(time=clock) as server:
        _room, ana, bo = await pair(server, "0.1+0")
        clock.passes(6_000)  # the timer, in real seconds, has not fired: the move finds it
        await ana.game.play(Move.parse("S a1"))
        await ana.until(lambda: ana.game.state.is_over)
        assert ana.game.record.termination is Termination.TIME and not ana.game.record.moves
        assert any(isinstance(m, ErrorMessage) for m in ana.seen)
        await ana.close()
        await bo.close()


async def test_lag_credit_is_half_the_ping_round_trip_and_at_most_the_bound():
    clock = HandTime()
    async with running(time=clock) as server:
        room, ana, bo = await pair(server, "1+0")
        mover = room.seats[0].client
        mover.ws.latency = 0.3  # a 300 ms round trip: 150 ms each way
        clock.passes(3_000)
        await play(ana, [bo], "S a1")
        assert room.session.record.spent_ms == (2_850,)
        mover = room.seats[1].client
        mover.ws.latency = 8.0  # claims 4 s each way: credited the bound, 500 ms
        clock.passes(3_000)
        await play(bo, [ana], "S c3")
        assert room.session.record.spent_ms == (2_850, 2_500)
        assert sent(ana).remaining_ms == (57_150, 57_500)
        await ana.close()
        await bo.close()


async def test_a_server_restart_gives_nobody_time_back(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    clock, tokens = HandTime(), (TokenStore(), TokenStore())
    store = SqliteRoomStore(path)
    server = Server(store=store, time=clock)
    await server.start("127.0.0.1", 0)
    room, ana, bo = await pair(server, "5+0", tokens)
    clock.passes(10_000)
    await play(ana, [bo], "S a1")  # Ana 4:50, Bo to move from now
    clock.passes(20_000)  # Bo thinks 20 s, then the server goes down
    # Ana's time: 4:50, less the move's transit the server credits back (half a real ping, a ms or two)
    ana_left = room.session.clocks.remaining(0, clock.now())
    assert 290_000 <= ana_left <= 290_000 + 500
    await server.restart()
    await store.close()
    await ana.close()
    await bo.close()

    later = HandTime(now=5, wall=clock.wall() + 60_000)  # down a minute; a new process's monotonic clock
    store = SqliteRoomStore(path)
    server = Server(store=store, time=later)
    try:
        for kept in store.load():
            server.restore(kept)
        back = server.rooms[room.code]
        assert back.session.clocks.remaining(1, later.now()) == 300_000 - 80_000
        assert back.session.clocks.remaining(0, later.now()) == ana_left
        await server.start("127.0.0.1", 0)
        bo = await seated(server.url(back), "Bo", tokens[1])
        await bo.until(lambda: bo.game.clocks is not None)
        assert sent(bo).remaining_ms == (ana_left, 220_000)
        await bo.close()
    finally:
        await server.stop()
        await store.close()


# -- correspondence --------------------------------------------------------------------------------
async def test_a_correspondence_room_flags_after_its_day_also_after_a_restart(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    speed = DAY_MS / 200  # a day in 0.2 s
    tokens = (TokenStore(), TokenStore())
    store = SqliteRoomStore(path)
    clock = FastTime(speed)
    server = Server(store=store, time=clock, allow_create=True)
    await server.start("127.0.0.1", 0)
    url, _token, _seats = await create_room(
        f"ws://127.0.0.1:{server.port}", 3, "general", PEOPLE, clock=TimeControl.parse("1d")
    )
    code = url.rsplit("/", 1)[1]
    ana, bo = await seated(url, "Ana", tokens[0]), await seated(url, "Bo", tokens[1])
    await ana.until(lambda: ana.game.phase == "playing")
    assert sent(ana).remaining_ms[0] <= DAY_MS
    await play(ana, [bo], "S a1")  # Ana moved in time: Bo's day starts
    await server.restart()  # at once: Bo's day runs on while the server is down
    await store.close()
    await ana.close()
    await bo.close()

    store = SqliteRoomStore(path)
    server = Server(store=store, time=FastTime(speed, wall=clock.wall()))
    try:
        for kept in store.load():
            server.restore(kept)
        room = server.rooms[code]
        assert not room.session.state.is_over and room.session.timed
        await asyncio.wait_for(room.finished.wait(), WAIT)  # nobody connected: the timer set on restore
        assert room.session.record.termination is Termination.TIME
        assert room.session.record.ending_text() == "Ana won on time"
    finally:
        await server.stop()
        await store.close()


async def test_a_hosted_game_has_the_plans_clock_and_brings_it_back():
    from sos_tui.engine import Seat, SeatKind
    from sos_tui.net.host import Host
    from sos_tui.net.run import HostPlan

    seats = (Seat("Ana"), Seat(None, SeatKind.REMOTE))
    plan = HostPlan(3, "general", seats, port=0, clock=TimeControl.parse("3+2"))
    host = Host.of(plan)
    room = await host.start()
    assert str(room.clock) == "3+2"
    await host.stop()
    again = Host.of(plan)
    await again.open()
    assert again.kept is not None and str(again.kept.clock) == "3+2"
    assert Host.of(HostPlan(3, "general", seats, port=0)).key != again.key  # an untimed plan is another game
    await again.stop()


# -- the clients -----------------------------------------------------------------------------------
async def test_join_plain_says_the_servers_clocks_and_the_flag(monkeypatch, capsys):
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard, wait_for

    clock = HandTime()
    async with running(time=clock) as server:
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("0.5+0"))
        ana = await seated(server.url(room), "Ana", TokenStore())
        bo = RemoteGame(server.url(room), "Bo", tokens=TokenStore())
        await bo.connect()
        keyboard = Keyboard(monkeypatch)
        said: list[str] = []

        def heard(text: str) -> bool:
            said.extend(capsys.readouterr().out.splitlines())
            return any(text in line for line in said)

        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        keyboard.type("clock")
        await wait_for(None, lambda: heard("Time left"))
        line = next(line for line in said if "Time left" in line)
        assert re.fullmatch(r"Time left: Ana 0:(29|30) \(to move\), Bo 0:30\.", line), line
        clock.passes(30_000)
        await ana.game.play(Move.parse("S a1"))  # too late: the server applies the flag
        await wait_for(None, lambda: heard("Game over"))
        assert "Ana ran out of time." in said and any(line.startswith("Game over: Bo wins") for line in said)
        keyboard.type("clock", "quit")
        assert await asyncio.wait_for(playing, WAIT) == 0
        said.extend(capsys.readouterr().out.splitlines())
        assert said[-1] == "Time left: Ana 0:00.0 (out), Bo 0:30."
        await ana.close()


async def test_the_network_screen_shows_both_clocks_ticking_and_the_servers_flag():
    from sos_tui.app import SosApp
    from sos_tui.app.screens.game_over import GameOverScreen
    from sos_tui.app.screens.net_game import NetGameScreen
    from sos_tui.app.widgets.scoreboard import Scoreboard
    from sos_tui.engine import Seat, SeatKind
    from sos_tui.net.run import HostPlan

    from .support.helpers import footer_line, screen_lines, wait_for

    def scoreboard(app) -> str:
        board = next(s for s in app.screen_stack if isinstance(s, NetGameScreen)).query_one(Scoreboard)
        return "\n".join(board.render_line(y).text for y in range(board.size.height))

    clock = HandTime()
    async with running(time=clock, allow_create=True) as server:
        plan = HostPlan(
            3,
            "general",
            (Seat("Ana"), Seat(None, SeatKind.REMOTE)),
            server_url=f"ws://127.0.0.1:{server.port}",
            clock=TimeControl.parse("0.5+2"),
        )
        app = SosApp(network=plan)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.net.join_url)
            bo = await seated(app.screen.net.join_url, "Bo", TokenStore())
            await wait_for(
                pilot,
                lambda: "0:30" in scoreboard(app) and "0:29" in scoreboard(app),
                what="Ana's clock running from 0:30, Bo's standing at 0:30",
            )
            assert "Undo" not in footer_line(app) and "Leave" in footer_line(app)  # no takebacks here
            room = next(iter(server.rooms.values()))
            assert str(room.session.record.clock) == "0.5+2"  # created on the server with the plan's clock
            clock.passes(30_000)
            room.session.check_time()  # what the room's timer does at the flag
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            assert "Bo won on time" in "\n".join(screen_lines(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: "0:00.0" in scoreboard(app))
            await bo.close()


async def test_no_takebacks_in_a_timed_room():
    async with running(time=HandTime()) as server:
        _room, ana, bo = await pair(server, "1+0")
        await play(ana, [bo], "S a1")
        await ana.game.request_undo()
        await ana.error("cannot-undo")
        assert any("no takebacks in a timed game" in m.text for m in ana.seen if isinstance(m, ErrorMessage))
        assert len(bo.game.record.moves) == 1
        await ana.close()
        await bo.close()


async def test_a_room_whose_clock_runs_or_a_correspondence_lobby_is_not_closed_for_idleness():
    from sos_tui.net import Limits
    from sos_tui.net.roomclock import idle_after

    from .support.helpers import wait_for

    limits = Limits(room_idle=0.1, unplayed_idle=0.1, reap_every=0.02)
    async with running(limits, time=HandTime()) as server:
        timed, ana, bo = await pair(server, "5+0")
        waiting = server.create_room(3, "general", PEOPLE, creator="10.0.0.1", clock=TimeControl.parse("1d"))
        untimed = server.create_room(3, "general", PEOPLE, creator="10.0.0.1")  # made last, reaped first
        await wait_for(None, lambda: untimed.closed, seconds=WAIT)  # an untimed room: reaped
        assert not timed.closed and not waiting.closed  # the flag ends the one, the other waits a day
        assert idle_after(waiting, limits.room_idle) == DAY_MS / 1000 and idle_after(timed, 3600) is None
        await ana.close()
        await bo.close()


async def test_join_plain_warns_once_when_its_own_time_runs_low(monkeypatch, capsys):
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard, wait_for

    clock = HandTime()
    async with running(time=clock) as server:
        room = server.create_room(3, "general", PEOPLE, clock=TimeControl.parse("0.1+0"))  # 6 s each
        ana = await seated(server.url(room), "Ana", TokenStore())
        bo = RemoteGame(server.url(room), "Bo", tokens=TokenStore())
        await bo.connect()
        keyboard = Keyboard(monkeypatch)
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await ana.until(lambda: ana.game.phase == "playing")
        await play(ana, [], "S a1")
        clock.passes(5_500)  # Bo thinks 5.5 s
        keyboard.type("O b2")
        await ana.version(ana.game.version + 1)
        await play(ana, [], "S c1")  # Bo's turn again, with 0.5 s left: low (10% of 6 s is 0.6 s)
        said: list[str] = []

        def heard() -> bool:
            said.extend(capsys.readouterr().out.splitlines())
            return any("running out" in line for line in said)

        await wait_for(None, heard, seconds=WAIT)
        (warning,) = [line for line in said if "running out" in line]
        assert re.fullmatch(r"Bo, your time is running out: 0:00\.[45] left\.", warning)
        keyboard.type("quit")
        assert await asyncio.wait_for(playing, WAIT) == 0
        await ana.close()


async def test_with_three_players_the_network_screen_says_who_ran_out_and_plays_on():
    from sos_tui.app import SosApp
    from sos_tui.app.screens.net_game import NetGameScreen
    from sos_tui.net.run import JoinPlan

    from .support.helpers import recording, wait_for

    clock = HandTime()
    async with running(time=clock) as server:
        room = server.create_room(3, "general", [*PEOPLE, {"kind": "remote"}], clock=TimeControl.parse("1+0"))
        ana = await seated(server.url(room), "Ana", TokenStore())
        bo = await seated(server.url(room), "Bo", TokenStore())
        app = recording(SosApp(network=JoinPlan(server.url(room), "Cy")))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, NetGameScreen)
                    and app.screen.state is not None
                    and app.screen.game.phase == "playing"
                ),
            )
            clock.passes(60_000)
            room.session.check_time()  # Ana's flag, as the room's timer applies it
            await wait_for(pilot, lambda: any("Ana ran out of time" in str(n.message) for n in app.notices))
            assert not app.screen.game.state.is_over and app.screen.game.state.to_move == 1
        await ana.close()
        await bo.close()
