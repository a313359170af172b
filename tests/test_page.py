"""The server's web page over plain HTTP (no browser): ``sos_tui/net/webpage.py`` answering on the
game's own port, beside the WebSockets. tests/test_page_browser.py plays it in Chromium."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sos_tui.net import Limits, webpage

from .support.helpers import WAIT, Player, Process, fetch, get, running

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import catalog

PAGE = Path(webpage.__file__).with_name("page")


def asset(name: str) -> str:
    return f"/static/{webpage.version()}/{name}"


async def test_the_lobby_page_is_html_with_a_strict_policy():
    async with running(allow_create=True) as server:
        status, headers, body = await fetch(server.port, get("/"))
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    assert int(headers["content-length"]) == len(body)
    html = body.decode()
    assert re.search(r"<title>[^<]*SOS[^<]*</title>", html)
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts and all("src=" in tag for tag in scripts)  # no inline script
    assert asset("main.js") in html and "VERSION" not in html


async def test_a_room_code_opens_the_page_and_the_files_are_typed_and_cached_for_good():
    async with running() as server:
        room, _h, page = await fetch(server.port, get("/7F3KQ-X9M2C"))
        assert room == 200 and b'type="module"' in page
        for name, kind in (
            ("main.js", "text/javascript"),
            ("page.css", "text/css"),
            ("icon.svg", "image/svg+xml"),
        ):
            status, headers, body = await fetch(server.port, get(asset(name)))
            assert status == 200 and headers["content-type"].startswith(kind)
            assert "immutable" in headers["cache-control"] and body == (PAGE / name).read_bytes()
            assert "content-security-policy" in headers


async def test_unknown_paths_are_not_found():
    async with running() as server:
        for path in (
            "/nothing",
            "/favicon.ico",
            "/static/0123456789ab/main.js",
            asset("index.html"),
            asset("../webpage.py"),
            asset("nothing.js"),
            "/i18n/fr.json",
            "/7f3kq-x9m2",
            "/a/b",
        ):
            status, headers, _body = await fetch(server.port, get(path))
            assert status == 404, path
            assert headers["x-content-type-options"] == "nosniff"


async def test_head_gives_the_headers_without_the_body():
    async with running() as server:
        status, headers, body = await fetch(server.port, get(asset("main.js"), "HEAD"))
    assert status == 200 and body == b""
    assert int(headers["content-length"]) == len((PAGE / "main.js").read_bytes())


async def test_only_get_and_head():
    async with running() as server:
        status, headers, _body = await fetch(server.port, get("/", "POST"))
        assert status == 405 and headers["allow"] == "GET, HEAD"
        status, _headers, _body = await fetch(
            server.port, get("/", "POST", "Content-Length: 5\r\n") + "hello"
        )
        assert status != 200  # a body is never read


async def test_an_oversized_request_is_refused():
    async with running() as server:
        long_path, _h, _b = await fetch(server.port, get("/" + "a" * 300))
        many, _h, _b = await fetch(
            server.port, get("/", extra="".join(f"X-{i}: {'y' * 500}\r\n" for i in range(20)))
        )
        huge, _h, _b = await fetch(server.port, get("/", extra=f"X-Big: {'y' * 20000}\r\n"))
    assert (long_path, many, huge) == (414, 431, 431)


async def test_an_unchanged_page_is_not_sent_again():
    async with running() as server:
        _s, headers, _b = await fetch(server.port, get("/"))
        status, _h, body = await fetch(server.port, get("/", extra=f"If-None-Match: {headers['etag']}\r\n"))
    assert status == 304 and body == b""


async def test_the_per_address_limits_count_page_requests():
    async with running(Limits(connect_burst=3, connects_per_second=0.01)) as server:
        answers = [(await fetch(server.port, get("/")))[0] for _ in range(4)]
    assert answers == [200, 200, 200, 429]


async def test_the_game_is_played_on_the_same_port():
    async with running(allow_create=True) as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        status, _h, _b = await fetch(server.port, get(f"/{room.code}"))
        async with Player(f"ws://127.0.0.1:{server.port}/{room.code}", "Ana") as ana:
            assert status == 200 and ana.game.seats[0].name == "Ana"


async def test_the_page_speaks_malay_from_the_catalog():
    async with running() as server:
        status, headers, body = await fetch(server.port, get("/i18n/ms.json"))
        english = (await fetch(server.port, get("/i18n/en.json")))[2]
    import json

    words = json.loads(body)
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert words["messages"]["Take a seat"] == "Ambil tempat"
    assert words["messages"]["{name} wrote {letter} at {cell}."] == "{name} menulis {letter} di {cell}."
    assert words["messages"]["it is {name}'s turn"]  # the server's own messages, for its errors
    assert "it is {name}'s turn" in words["server"]
    assert json.loads(english)["messages"] == {}


def test_every_word_of_the_page_is_in_the_catalog():
    """The server reads the page's words as tools/catalog.py extracts them into sos_tui.pot."""
    pot = {
        (m.id if isinstance(m.id, str) else m.id[0])
        for m in catalog.extract()
        if any(where.startswith("sos_tui/net/page/") for where, _line in m.locations)
    }
    marked = {msgid for msgid, _plural in webpage.marked()}
    assert marked == pot and "Take a seat" in marked and len(marked) > 60


def test_the_page_never_parses_data_as_html():
    for script in PAGE.glob("*.js"):
        text = script.read_text()
        for risky in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert risky not in text, (script.name, risky)
        assert "ws://" not in text.replace("`${scheme}://", "")  # only the page's own host


def schemes() -> dict[str, dict[str, str]]:
    """The colour variables of page.css: the light ones, and the dark ones over them."""
    css = (PAGE / "page.css").read_text()
    blocks = re.findall(r":root \{([^}]*)\}", css)
    light = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6})", blocks[0]))
    return {"light": light, "dark": {**light, **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6})", blocks[1]))}}


def test_every_text_colour_has_4_5_to_1_in_light_and_dark():
    from textual.color import Color

    from sos_tui.app.colours import contrast

    texts = ["fg", "subtle", "problem", "accent", *(f"p{i}" for i in range(6))]
    assert schemes()["dark"]["bg"] != schemes()["light"]["bg"]
    for scheme, colours in schemes().items():
        for background in ("bg", "panel"):
            for text in texts:
                ratio = contrast(Color.parse(colours[text]), Color.parse(colours[background]))
                assert ratio >= 4.5, (scheme, text, background, round(ratio, 2))
        assert contrast(Color.parse(colours["fg"]), Color.parse(colours["cursor"])) >= 4.5
        assert contrast(Color.parse(colours["accent-fg"]), Color.parse(colours["accent"])) >= 4.5


@pytest.mark.parametrize("command", [("server",), ("host", "--headless", "--players", "remote,remote")])
def test_server_and_host_say_where_browsers_play_and_serve_the_page_there(tmp_path, command):
    import urllib.request

    server = Process(*command, "--port", "0", env_dir=tmp_path)
    try:
        game = server.line("ws://").split()[-1].rstrip(".")
        line = server.line("http://")
        url = line[line.index("http://") :]
        assert url == "http" + game.removeprefix("ws") or url == "http" + game.removeprefix("ws") + "/"
        with urllib.request.urlopen(url, timeout=WAIT) as answer:
            assert answer.status == 200 and b"<title>SOS</title>" in answer.read()
    finally:
        server.stop()


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="needs node to run the page's engine.js outside a browser")
def test_the_pages_rules_follow_the_engines_on_random_games(tmp_path):
    """engine.js (the page's replay of a record) and words.js find the same SOS lines, scores,
    movers, end and winners as sos_tui.engine, and say each SOS as --plain does."""
    from sos_tui.engine import GameState
    from sos_tui.plain import words

    chooser = random.Random(44)
    games, expected = [], []
    for number in range(120):
        size, mode, players = (
            chooser.randint(3, 7),
            chooser.choice(["general", "simple"]),
            chooser.randint(2, 4),
        )
        state = GameState.new(size, mode, players)
        while not state.is_over and (number % 3 or state.move_count < size * 2):
            state = state.play(chooser.choice(state.legal_moves()))
        games.append(
            {"size": size, "mode": mode, "players": [{}] * players, "moves": [str(m) for m in state.moves]}
        )
        expected.append(
            {
                "scores": list(state.scores),
                "movers": list(state.movers),
                "over": state.is_over,
                "winners": list(state.outcome.winners) if state.is_over else None,
                "lines": [
                    [line.player, line.move_index, [list(c) for c in line.cells]] for line in state.lines
                ],
                "said": sorted(words.sos_cells(line) for line in state.lines),
            }
        )
    runner = tmp_path / "replay.mjs"
    runner.write_text(
        f"""
        const engine = await import("{(PAGE / "engine.js").as_uri()}");
        const words = await import("{(PAGE / "words.js").as_uri()}");
        const games = JSON.parse(await (await import("node:fs/promises")).readFile(process.argv[2], "utf8"));
        console.log(JSON.stringify(games.map((record) => {{
          const game = engine.replay(record);
          return {{ scores: game.scores, movers: game.movers, over: game.over,
            winners: game.over ? game.winners() : null,
            lines: game.lines.map((line) => [line.player, line.move, line.cells]),
            said: game.lines.map((line) => words.sosCells(line)).sort() }};
        }})));
        """
    )
    (tmp_path / "games.json").write_text(json.dumps(games))
    out = subprocess.run(
        [NODE, str(runner), str(tmp_path / "games.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found = json.loads(out.stdout)
    for number, (js, py) in enumerate(zip(found, expected, strict=True)):
        assert {**js, "lines": sorted(js["lines"])} == {**py, "lines": sorted(py["lines"])}, games[number]


@pytest.mark.skipif(NODE is None, reason="needs node to run the page's words.js outside a browser")
def test_the_page_says_how_a_game_the_rules_ended_early_ended_from_its_record(tmp_path):
    """A game over before its board (a resignation, time, a claim, a draw agreed, an abort): the
    page says the result and how, from the whole record the server sends, as the TUI does."""
    from sos_tui.engine import GameRecord, GameState, Seat, Termination

    names = ["Ana", "Bo", "Cy"]
    resigned = GameState.from_moves(["S a1"], 3).drop(1, Termination.RESIGN)
    timed_out = GameState.from_moves(["S a1"], 3, players=3).drop(2, Termination.TIME)
    timed_out = timed_out.drop(1, Termination.TIME)
    agreed = GameState.from_moves(["S a1"], 3).end(Termination.AGREEMENT)
    aborted = GameState.new(3).end(Termination.ABORT)
    records = [GameRecord.for_state(state, [Seat(n) for n in names[: state.players]]).to_dict()
               for state in (resigned, timed_out, agreed, aborted)]
    records.append({"result": {"over": False, "winners": []}})  # running: nothing to say
    runner = tmp_path / "ended.mjs"
    runner.write_text(
        f"""
        const words = await import("{(PAGE / "words.js").as_uri()}");
        const fs = await import("node:fs/promises");
        const records = JSON.parse(await fs.readFile(process.argv[2], "utf8"));
        console.log(JSON.stringify(records.map((r) => words.ended(r, {json.dumps(names)}))));
        """
    )
    (tmp_path / "records.json").write_text(json.dumps(records))
    out = subprocess.run([NODE, str(runner), str(tmp_path / "records.json")], capture_output=True,
                         text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [
        "Game over: Ana wins. How it ended: Bo resigned.",
        "Game over: Ana wins. How it ended: Cy ran out of time; Bo ran out of time.",
        "Game over: a draw between Ana and Bo. How it ended: drawn by agreement.",
        "Game over: aborted, with no result.",
        None,
    ]
