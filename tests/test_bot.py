"""``sos-tui bot``: an engine program taking the open seats of a server's public games through the
client's API, several at once, and leaving a game its engine loses by misbehaving."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from sos_tui.cli import main
from sos_tui.net import Server, create_room
from sos_tui.net.bot import bot_name, run_bot

from .support.helpers import alive, children

ENGINES = Path(__file__).parent / "engines"
RAND = f"{sys.executable} {ENGINES / 'rand.py'}"
OPEN = [{"kind": "remote"}, {"kind": "remote"}]


def engines() -> list[int]:
    found = []
    for pid in children(os.getpid()):
        try:
            if b"tests/engines" in Path(f"/proc/{pid}/cmdline").read_bytes() and alive(pid):
                found.append(pid)
        except OSError:
            pass
    return found


async def test_two_bots_take_the_open_seats_of_public_games_and_play_them_to_the_end():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        for size in (3, 4):
            await create_room(base, size, "general", OPEN, public=True)
        said: list[str] = []
        taken = await asyncio.wait_for(
            asyncio.gather(
                run_bot(base, bot_name("A"), RAND, said.append, games=2, movetime=200, until=2, poll=0.05),
                run_bot(base, bot_name("B"), RAND, said.append, games=2, movetime=200, until=2, poll=0.05),
            ),
            30,
        )
    assert taken == [2, 2]  # each bot in both games at once
    assert sum(": seated" in line for line in said) == 4 and sum(": over, " in line for line in said) == 4
    assert engines() == []


async def test_a_bot_whose_engine_misbehaves_leaves_that_game_saying_why():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        await create_room(base, 3, "general", OPEN, public=True)
        said: list[str] = []
        illegal = f"{sys.executable} {ENGINES / 'misbehave.py'} illegal"
        good = asyncio.ensure_future(run_bot(base, "Good (bot)", RAND, said.append, movetime=200, poll=0.05))
        bad = run_bot(base, "Bad (bot)", illegal, said.append, movetime=200, until=1, poll=0.05)
        try:
            assert await asyncio.wait_for(bad, 30) == 1
        finally:
            good.cancel()
            await asyncio.gather(good, return_exceptions=True)
    assert any(
        "the engine loses this game: engine Misbehave illegal played an illegal move" in line for line in said
    )
    assert engines() == []


def test_bot_says_in_one_line_what_is_wrong_with_its_command_line(capsys):
    assert main(["bot", "http://example.com", "--engine", RAND]) == 2
    assert capsys.readouterr().err.startswith("sos-tui bot: ")
    assert main(["bot", "ws://127.0.0.1:47890", "--engine", "no-such-engine-anywhere"]) == 2
    assert capsys.readouterr().err == (
        "sos-tui bot: engine no-such-engine-anywhere could not start: No such file or directory\n"
    )
