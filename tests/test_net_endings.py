"""Network games that end before the board is full (protocol revision 4): a resign with two and
with three players, an abort, a draw agreed and one declined by a move, the refusals (a spectator,
a game over, too late, three players), a claim when a player has gone (the server's gone-time set
small or large, never slept through), and a drop kept across a restart of the server. Every server
listens on 127.0.0.1, port 0, and is stopped by its test."""

from __future__ import annotations

import asyncio

from sos_tui.engine import Termination
from sos_tui.net import Limits, Server, TokenStore
from sos_tui.net.netsession import NetSession
from sos_tui.net.protocol import ErrorMessage, StateMessage
from sos_tui.net.store import SqliteRoomStore
from sos_tui.session import ChangeKind, Keeper

from .support.helpers import Player, play, running, seated, send_raw

TWO = [{"kind": "remote"}, {"kind": "remote"}]
THREE = [{"kind": "remote"}, {"kind": "remote"}, {"kind": "remote"}]


async def seated_all(url: str, *names: str) -> list[Player]:
    players = [await Player(url, name).__aenter__() for name in names]
    await players[0].until(lambda: players[0].game.phase == "playing")
    return players


async def close_all(players: list[Player]) -> None:
    for player in players:
        await player.close()


async def over(*players: Player) -> None:
    for p in players:
        await p.until(lambda p=p: p.game.state is not None and p.game.state.is_over)


async def test_two_players_one_resigns_the_other_wins_and_both_histories_say_how():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        (ana, bo), histories = await followed(server.url(room), "Ana", "Bo")
        ana_game, bo_game = ana.session.game, bo.session.game
        await ana_game.play(ana_game.state.legal_moves()[0])
        await bo.until(lambda: bo_game.version >= 2)
        assert bo_game.may("resign") and not ana_game.may("claim")
        await bo_game.resign()
        for reader in (ana, bo):
            game = reader.session.game
            await reader.until(lambda game=game: game.state.is_over)
            assert game.state.termination is Termination.RESIGN and game.state.winners == (0,)
            assert game.record.ending_text() == "Bo resigned" and game.phase == "over"
        for history in histories:
            history.keeper.wait(5)
            assert [r.termination for r in history.kept] == [Termination.RESIGN]
        assert room.session.record.termination is Termination.RESIGN
        await stop_all((ana, bo), histories)


async def test_a_state_after_a_resign_says_who_dropped_and_how_the_game_ended():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        players = ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await bo.game.resign()
        await over(ana, bo)
        last = [m for m in ana.seen if isinstance(m, StateMessage)][-1]
        assert (last.change, last.seat, last.termination) == ("drop", 1, "resign")
        assert last.game.drops[0].seat == 1  # the record says it too
        await close_all(players)


async def test_three_players_one_resigns_and_the_others_play_on_skipping_the_seat():
    async with running() as server:
        room = server.create_room(4, "general", THREE)
        players = ana, bo, cy = await seated_all(server.url(room), "Ana", "Bo", "Cy")
        await play(ana, [bo, cy], "S a1")
        await bo.game.resign()  # Bo is to move: the turn passes to Cy
        await cy.until(lambda: cy.game.state.is_out(1))
        assert not cy.game.state.is_over and cy.game.state.to_move == 2 and cy.game.my_turn
        await play(cy, [ana, bo], "O b2")
        assert ana.game.state.to_move == 0  # Bo's turns are skipped
        await send_raw(bo.game, {"type": "resign"})  # out already
        await bo.error("cannot-resign")
        await play(ana, [bo, cy], "S d1")
        assert ana.game.state.to_move == 2
        await close_all(players)


async def test_a_seat_out_of_the_game_is_not_asked_about_an_undo():
    async with running() as server:
        room = server.create_room(4, "general", THREE)
        players = ana, bo, cy = await seated_all(server.url(room), "Ana", "Bo", "Cy")
        await play(ana, [bo, cy], "S a1")
        await bo.game.resign()
        await cy.until(lambda: cy.game.state.is_out(1))
        await play(cy, [ana, bo], "O b2")
        await ana.game.request_undo()
        await cy.until(lambda: cy.game.undo_request is not None)
        assert bo.game.undo_request is None or not bo.game.undo_request.vote  # Bo is out: not asked
        await cy.game.answer_undo(True)
        await ana.until(lambda: len(ana.game.state.moves) == 1)  # Cy alone agreed: undone
        assert ana.game.state.is_out(1)  # the drop stays
        await close_all(players)


async def test_an_abort_before_everyone_moved_ends_the_game_and_puts_it_in_no_history():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        readers, histories = await followed(server.url(room), "Ana", "Bo")
        ana, bo = (r.session.game for r in readers)
        changes = []
        ana.subscribe(changes.append)
        await ana.play(ana.state.legal_moves()[0])
        await readers[1].until(lambda: bo.version >= 2)
        assert bo.may("abort")
        await bo.abort()
        await readers[0].until(lambda: ana.state.is_over)
        assert ana.state.termination is Termination.ABORT and not ana.state.outcome.has_result
        assert changes[-1].kind is ChangeKind.END and changes[-1].finished
        for history in histories:
            history.keeper.wait(5)
            assert history.kept == [] and history.aborted
        await stop_all(readers, histories)


async def test_an_abort_after_everyone_moved_is_refused_with_its_code():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        players = ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await play(ana, [bo], "S a1")
        await play(bo, [ana], "O b2")
        assert ana.game.may("abort") is None  # shown, but not now
        await ana.game.abort()
        await ana.error("too-late")
        assert not room.session.state.is_over
        await close_all(players)


async def test_a_draw_agreed_ends_the_game_drawn_for_both():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        players = ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await ana.game.offer_draw()
        await bo.until(lambda: bo.game.draw_offer == 0)
        assert not ana.game.may("offer_draw")  # one offer at a time
        await bo.game.answer_draw(True)
        await over(ana, bo)
        for p in players:
            assert p.game.state.termination is Termination.AGREEMENT and p.game.state.is_draw
        assert room.session.record.termination is Termination.AGREEMENT
        await close_all(players)


async def test_a_draw_offer_is_declined_by_a_move_of_the_other_player():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        players = ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await play(ana, [bo], "S a1")
        await ana.game.offer_draw()
        await bo.until(lambda: bo.game.draw_offer == 0)
        await bo.game.play(bo.game.state.legal_moves()[0])
        await ana.until(lambda: len(ana.game.state.moves) == 2)
        assert ana.game.draw_offer is None and not ana.game.state.is_over
        changes = [m.change for m in ana.seen if isinstance(m, StateMessage)]
        assert changes[-2:] == ["draw_declined", "move"]
        await send_raw(bo.game, {"type": "draw-answer", "accept": True})  # nothing to answer now
        await bo.error("no-draw")
        await close_all(players)


async def test_a_draw_among_three_a_spectator_resigning_and_a_resign_after_the_end_are_refused():
    async with running() as server:
        room = server.create_room(3, "general", THREE)
        url = server.url(room)
        players = ana, bo, cy = await seated_all(url, "Ana", "Bo", "Cy")
        await ana.game.offer_draw()
        await ana.error("cannot-draw")
        async with Player(url, None) as watcher:
            for message in ({"type": "resign"}, {"type": "abort"}, {"type": "draw"}, {"type": "claim"}):
                await send_raw(watcher.game, message)
            await watcher.until(
                lambda: sum(isinstance(m, ErrorMessage) and m.code == "spectator" for m in watcher.seen) == 4
            )
            assert watcher.game.may("resign") is False
        await bo.game.resign()
        await cy.game.resign()
        await over(ana)
        assert ana.game.state.winners == (0,)
        await ana.game.resign()
        await ana.error("over")
        assert room.session.state.drops[-1].seat == 2
        await close_all(players)


async def test_a_claim_after_the_gone_time_wins_for_the_player_left():
    async with running(Limits(claim_after=0)) as server:
        room = server.create_room(3, "general", TWO)
        ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await play(ana, [bo], "S a1")
        await ana.game.claim()
        await ana.error("cannot-claim")  # Bo is here
        await bo.close()
        await ana.until(lambda: ana.game.claimable)
        assert ana.game.may("claim") and ana.game.away[0].seat == 1
        await ana.game.claim()
        await over(ana)
        assert ana.game.state.termination is Termination.ABANDON and ana.game.state.winners == (0,)
        assert ana.game.record.ending_text() == "Bo left the game"
        await ana.close()


async def test_a_claim_before_the_gone_time_is_refused_and_says_how_long():
    async with running(Limits(claim_after=60)) as server:
        room = server.create_room(3, "general", TWO)
        ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        await bo.close()
        await ana.until(lambda: ana.game.away)
        assert not ana.game.claimable and ana.game.may("claim") is False
        await send_raw(ana.game, {"type": "claim"})
        await ana.error("cannot-claim")
        refusal = next(m for m in ana.seen if isinstance(m, ErrorMessage))
        assert refusal.template == "{names} may be claimed in {seconds} s"
        assert refusal.params["names"] == "Bo" and 55 <= refusal.params["seconds"] <= 60
        assert not room.session.state.is_over
        await ana.close()


async def test_a_claim_among_three_drops_the_seat_gone_and_play_goes_on():
    async with running(Limits(claim_after=0)) as server:
        room = server.create_room(3, "general", THREE)
        ana, bo, cy = await seated_all(server.url(room), "Ana", "Bo", "Cy")
        await play(ana, [bo, cy], "S a1")
        await bo.close()  # Bo is to move, and gone
        await ana.until(lambda: ana.game.claimable)
        await cy.game.claim()
        await ana.until(lambda: ana.game.state.is_out(1))
        assert not ana.game.state.is_over and ana.game.waiting_for == () and not ana.game.away
        assert ana.game.state.drops[-1].why is Termination.ABANDON
        await play(cy, [ana], "O b2")  # the game no longer waits for Bo
        await close_all([ana, cy])


async def test_a_drop_is_kept_across_a_restart_of_the_server(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    server = Server(store=store)
    await server.start("127.0.0.1", 0)
    room = server.create_room(3, "general", THREE)
    url, port = server.url(room), server.port
    tokens = {name: TokenStore() for name in ("Ana", "Bo", "Cy")}
    players = [await seated(url, name, tokens[name]) for name in ("Ana", "Bo", "Cy")]
    await players[0].until(lambda: players[0].game.phase == "playing")
    await play(players[0], players[1:], "S a1")
    await players[1].game.resign()
    await players[0].until(lambda: players[0].game.state.is_out(1))
    await server.restart()
    await store.close()
    await close_all(players)

    store = SqliteRoomStore(path)
    server = Server(store=store)
    try:
        for kept in store.load():
            server.restore(kept)
        await server.start("127.0.0.1", port)
        state = server.rooms[room.code].session.state
        assert state.is_out(1) and state.drops[0].why is Termination.RESIGN and state.to_move == 2
        ana = await seated(url, "Ana", tokens["Ana"])
        cy = await seated(url, "Cy", tokens["Cy"])
        await ana.until(lambda: not ana.game.waiting_for)  # Bo, out, is waited for no more
        assert ana.game.state.is_out(1) and ana.game.record.ending_text() == "Bo resigned"
        await play(cy, [ana], "O b2")
        await close_all([ana, cy])
    finally:
        await server.stop()
        await store.close()


def test_the_gone_time_is_a_minute_unless_the_host_sets_it():
    from sos_tui.engine import Seat, SeatKind
    from sos_tui.net.host import Host
    from sos_tui.net.run import HostPlan

    assert Limits().claim_after == 60  # as docs/protocol.md and --claim-after's help say
    seats = (Seat(None, SeatKind.REMOTE), Seat(None, SeatKind.REMOTE))
    assert Host.of(HostPlan(3, "general", seats, port=0)).server.limits.claim_after == 60
    assert Host.of(HostPlan(3, "general", seats, port=0, claim_after=5)).server.limits.claim_after == 5


class Reader:
    """A ``NetSession`` followed in the background, to wait on."""

    def __init__(self, session: NetSession) -> None:
        self.session = session
        self.changed = asyncio.Event()
        self.task = asyncio.ensure_future(session.run(lambda message: self.changed.set()))

    async def until(self, predicate, timeout: float = 5.0) -> None:
        async def wait():
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)

    async def stop(self) -> None:
        await self.session.close()
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


class History:
    """A player's history (a ``Keeper`` store in memory): the finished games kept, and whether an
    aborted game was told."""

    def __init__(self) -> None:
        self.kept: list = []
        self.aborted = False
        self.keeper = Keeper(self, flush_at_start=False)

    def autosave(self, record):
        return None

    def clear_autosave(self, record):
        self.aborted = self.aborted or record.termination is Termination.ABORT

    def record_finished(self, record) -> None:
        self.kept.append(record)

    def flush(self) -> int:
        return 0

    def save_settings(self, settings) -> None:
        return None

    def lost(self) -> list[str]:
        return []


async def followed(url: str, *names: str) -> tuple[list[Reader], list[History]]:
    """Each of ``names`` joined by a ``NetSession`` keeping its finished games in a ``History``,
    once the game is under way."""
    readers, histories = [], []
    for name in names:
        history = History()
        session = NetSession.join(url, name, TokenStore())
        session.keep_in(history.keeper)
        await session.open()
        readers.append(Reader(session))
        histories.append(history)
    await readers[0].until(lambda: all(r.session.game.phase == "playing" for r in readers))
    return readers, histories


async def stop_all(readers: list[Reader], histories: list[History]) -> None:
    for reader in readers:
        await reader.stop()
    for history in histories:
        history.keeper.close()


async def test_a_server_saying_a_drop_or_an_offer_about_nobody_tells_the_client_nothing_and_breaks_nothing():
    """A hostile or broken server: a ``drop`` with no drop in its game, a draw offer for a seat that
    is not there, ``gone`` entries that are not entries. The client takes the game in, tells its
    listeners nothing of those changes, and lists nobody gone."""
    import json

    from websockets.asyncio.server import serve

    from sos_tui.net import RemoteGame

    record = {
        "format": "sos-game",
        "version": 1,
        "size": 3,
        "mode": "general",
        "players": [{"name": "Ana"}, {"name": "Bo"}],
        "moves": ["S a1"],
    }
    seats = [{"name": "Ana", "kind": "human"}, {"name": "Bo", "kind": "human"}]

    def state(version: int, **fields) -> str:
        return json.dumps(
            {
                "type": "state",
                "seats": seats,
                "game": record,
                "version": version,
                "phase": "playing",
                **fields,
            }
        )

    async def hostile(ws) -> None:
        await ws.recv()
        await ws.send(
            json.dumps(
                {"type": "welcome", "protocol": 1, "minor": 4, "room": "x", "seats": [1], "token": "t"}
            )
        )
        await ws.send(state(1, change="join"))
        await ws.send(state(2, change="drop", seat=None, gone=[{"seat": 9, "for": 1, "claim_in": 0}, "x"]))
        await ws.send(
            state(3, change="draw_offer", seat=7, draw_offer=7, gone=[{"seat": 0, "for": -1, "claim_in": 0}])
        )
        await ws.wait_closed()

    async with serve(hostile, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        game = RemoteGame(f"ws://127.0.0.1:{port}/abcde-fghjk", "Bo", tokens=TokenStore())
        changes = []
        game.subscribe(changes.append)
        await game.connect()
        updates = game.updates()
        for _ in range(2):
            await asyncio.wait_for(anext(updates), 5)
        assert game.version == 3 and changes == [] and game.away == () and game.draw_offer is None
        await game.close()


async def test_a_player_claimed_while_away_hears_how_it_ended_on_coming_back_and_keeps_it():
    async with running(Limits(claim_after=0)) as server:
        room = server.create_room(3, "general", TWO)
        ana, bo = await seated_all(server.url(room), "Ana", "Bo")
        history = History()
        NetSession.of(bo.game).keep_in(history.keeper)
        changes = []
        bo.game.subscribe(changes.append)
        await play(ana, [bo], "S a1")
        await bo.close()  # Bo's connection goes
        await ana.until(lambda: ana.game.claimable)
        await ana.game.claim()
        await over(ana)
        await bo.game.connect()  # back, with the seat's token: the game ended meanwhile
        assert bo.game.state.termination is Termination.ABANDON
        assert changes[-1].kind is ChangeKind.DROP and changes[-1].seat == 1 and changes[-1].finished
        history.keeper.wait(5)
        assert [r.termination for r in history.kept] == [Termination.ABANDON]
        history.keeper.close()
        await close_all([ana, bo])
