"""The server's own page played in a real browser: Debian's headless Chromium driven by Selenium
through chromium-driver (its path given: nothing downloaded), against an in-process ``Server`` on
127.0.0.1 (its own event loop in a thread, stopped by each test). Each window of one browser has
its own sessionStorage, so two windows are two players, as they are for a person."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import threading
import time

import pytest

from sos_tui.net import Limits, Server
from sos_tui.net.rating import ServerRatings

from .support.helpers import SOS, FirstMove

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
TIMEOUT = 15.0

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or shutil.which(DRIVER) is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)

HOSTILE = "<svg onload=alert(1)>"  # a name is at most 24 characters: <img src=x onerror=alert(1)> is not one
IMAGE = "<img src=x onerror=f()>"
MARKUP = "[b]x[/b]"


class Served:
    """A ``Server`` on a free port of 127.0.0.1, run by an event loop in a thread of its own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        limits = Limits(connect_burst=500, connects_per_second=100)  # every window is one address
        self.server = Server(limits, computer=FirstMove(), allow_create=True, ratings=ServerRatings())
        self.port = self.call(self.server.start("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.port}"

    def call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT)

    def room(self, size: int = 3, seats=({"kind": "remote"}, {"kind": "remote"})) -> str:
        async def create():
            return self.server.create_room(size, "general", list(seats)).code

        return self.call(create())

    def drop(self, code: str, seat: int) -> None:
        """Close the connection that holds ``seat`` of the room ``code`` (1012: come back)."""

        async def drop():
            for client in list(self.server.rooms[code].clients):
                if seat in client.seats:
                    await client.close(1012, "dropped by the test")

        self.call(drop())

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)


@pytest.fixture
def served():
    served = Served()
    yield served
    served.stop()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium (1280x800) for the tests of this module: a start costs about a second
    of CPU, more than most of these tests' own pages."""
    selenium = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = selenium.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,800",
        "--no-first-run",
        "--lang=en-GB",
    ):
        options.add_argument(argument)
    driver = selenium.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(TIMEOUT)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def chromium(browser):
    """The module's Chromium, as a test finds it: one fresh window (no other test's pages, sizes or
    log), others opened with ``window(driver, url)``. Its windows are closed after the test, before
    its server stops (a page left open would keep calling it back)."""
    yield browser
    browser.switch_to.new_window("window")
    fresh = browser.current_window_handle
    for handle in browser.window_handles:
        if handle != fresh:
            browser.switch_to.window(handle)
            browser.close()
    browser.switch_to.window(fresh)
    browser.get_log("browser")  # what this test's pages logged


# -- what a person does and sees ----------------------------------------------------------------
def until(check, what: str, timeout: float = TIMEOUT):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(Exception):  # an element redrawn under us: look again
            if value := check():
                return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def window(driver, url: str) -> str:
    """A new window (its own sessionStorage) showing ``url``; its handle."""
    driver.switch_to.new_window("window")
    driver.get(url)
    return driver.current_window_handle


def find(driver, css: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, css)


def find_all(driver, css: str):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def said(driver) -> str:
    return find(driver, "#said").text


def labels(driver) -> list[str]:
    return [cell.get_attribute("aria-label") for cell in find_all(driver, "[role=gridcell]")]


def take_seat(driver, name: str, seated: bool = True) -> None:
    from selenium.webdriver.common.keys import Keys

    field = until(lambda: find(driver, "#name"), "the name field")
    field.clear()
    field.send_keys(name + Keys.ENTER)  # Enter in the name field takes a seat
    if seated:
        until(lambda: find_all(driver, "[role=grid]") or "starts when" in find(driver, "main").text, "seated")


def clicked(element) -> bool:
    """Click ``element``: inside ``until``, an element the page redrew between finding it and the
    click (a state arrived: stale) is found again and clicked then."""
    element.click()
    return True


def tap(driver, cell: str, letter: str) -> None:
    """Click ``cell`` (like ``b2``), then the S or O it offers."""
    until(lambda: clicked(find(driver, f"[aria-label='{cell}, empty']")), f"{cell} empty")
    until(lambda: clicked(find_all(driver, ".choose button.letter")["SO".index(letter)]), "the S / O choice")
    until(lambda: f"{cell}, {letter}" in labels(driver), f"{letter} on {cell}")


# -- tests ----------------------------------------------------------------------------------------
def test_keyboard_moves_aria_grid_and_a_python_client_in_the_same_room(served, chromium):
    """The fast one: a browser seated by name, a Python client (as ``sos-tui join`` speaks) in the
    other seat with a hostile name; arrows and S / O keys play; the grid is labelled."""
    from selenium.webdriver.common.keys import Keys
    from websockets.sync.client import connect

    code = served.room()
    chromium.get(f"{served.url}/{code}")
    assert "SOS" in chromium.title
    take_seat(chromium, "Ana")
    with connect(f"ws://127.0.0.1:{served.port}/{code}") as other:
        other.send(json.dumps({"type": "hello", "protocol": 1, "minor": 2, "name": HOSTILE, "token": None}))
        assert json.loads(other.recv(TIMEOUT))["type"] == "welcome"
        until(
            lambda: (
                "Ana to move" in find(chromium, ".status").text
                or "Your turn" in find(chromium, ".status").text
            ),
            "the game to start",
        )
        grid = find(chromium, "[role=grid]")
        assert len(find_all(grid, "[role=row]")) == 3 and len(find_all(grid, "[role=gridcell]")) == 9
        assert labels(chromium)[:2] == ["a1, empty", "b1, empty"]
        first = find(chromium, "[role=gridcell]")
        first.click()  # the cell takes the focus (and offers S / O: Escape closes it)
        find(chromium, ".choose button").send_keys(Keys.ESCAPE)
        until(
            lambda: chromium.switch_to.active_element.get_attribute("aria-label") == "a1, empty", "a1 focused"
        )
        chromium.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_DOWN, "s")
        until(lambda: "b2, S" in labels(chromium), "S on b2")
        chromium.switch_to.active_element.send_keys("o")  # not Ana's turn: said at once, nothing sent
        until(lambda: f"it is {HOSTILE}'s turn" in said(chromium), "why not")
        heard = []
        until(
            lambda: (
                heard.append(json.loads(other.recv(TIMEOUT)))
                or any(m.get("change") == "move" and m.get("move") == "S b2" for m in heard)
            ),
            "the move at the other seat",
        )
        other.send(json.dumps({"type": "move", "move": "O c3", "version": heard[-1]["version"]}))
        until(lambda: "c3, O" in labels(chromium), "the other seat's move")
        assert f"{HOSTILE} wrote O at c3." in said(chromium)  # the same sentence as --plain
        assert HOSTILE in find(chromium, ".scores").text
        assert not find_all(chromium, ".scores svg, #said svg")  # the name was text, never markup
        chromium.switch_to.active_element.send_keys(Keys.ARROW_LEFT, "o")
        until(lambda: "a2, O" in labels(chromium), "O on a2")
        served.drop(code, seat=0)  # the connection drops: the page comes back by itself, seated
        until(lambda: "Reconnected." in said(chromium), "the page to reconnect")
        assert "Ana (you)" in find(chromium, ".scores").text and "a2, O" in labels(chromium)
    problems = [entry["message"] for entry in chromium.get_log("browser") if entry["level"] == "SEVERE"]
    assert not problems  # no script error, nothing the Content-Security-Policy refused


PLAYED = (
    (0, "S", "a1"),
    (1, "O", "b2"),
    (0, "S", "c3"),
    (0, "S", "a3"),
    (1, "S", "c1"),
    (1, "O", "a2"),
    (1, "O", "c2"),
    (1, "S", "b1"),
    (0, "S", "b3"),
)


def test_the_page_sends_its_key_and_shows_the_ratings_of_a_rated_game_and_its_lobby(served, chromium):
    """The page's player key (localStorage) in hello: a rated game against a keyed Python client
    rates both, and the page's status and live region say the new ratings."""
    from websockets.sync.client import connect

    async def create():
        return served.server.create_room(
            3, "general", [{"kind": "remote"}, {"kind": "remote"}], rated=True, public=True
        ).code

    code = served.call(create())
    chromium.get(f"{served.url}/{code}")
    take_seat(chromium, "Ana")
    key = chromium.execute_script("return localStorage.getItem('sos-player-key')")
    assert key and len(key) == 43
    chromium.get(served.url)  # the lobby lists the room as rated
    until(lambda: code in find(chromium, "main").text and "rated" in find(chromium, "main").text, "rated")
    chromium.get(f"{served.url}/{code}")  # back in the seat (sessionStorage keeps its token)
    with connect(f"ws://127.0.0.1:{served.port}/{code}") as bo:
        bo.send(
            json.dumps(
                {"type": "hello", "protocol": 1, "minor": 2, "name": "Bo", "token": None, "key": "b" * 43}
            )
        )
        heard = []

        def latest():
            heard.append(json.loads(bo.recv(TIMEOUT)))
            return [m for m in heard if m.get("type") == "state"][-1]

        state = None
        for who, letter, cell in PLAYED:  # Bo wins 3-2 on a full board
            version = state["version"] + 1 if state else 0
            state = until(
                lambda v=version, w=who: (s := latest())["version"] >= v and s["to_move"] == w and s,
                f"the turn of {cell}",
            )
            if who == 0:
                tap(chromium, cell, letter)
            else:
                bo.send(json.dumps({"type": "move", "move": f"{letter} {cell}", "version": state["version"]}))
        status = until(
            lambda: "Rated:" in find(chromium, ".status").text and find(chromium, ".status").text,
            "the ratings",
        )
    assert status.startswith("Game over: Bo wins. Rated: Ana 14") and "(-" in status and "Bo 15" in status
    assert "Rated: Ana" in said(chromium)


def test_a_hostile_name_is_shown_literally_and_the_page_speaks_malay(served, chromium):
    code = served.room()
    chromium.get(f"{served.url}/{code}")
    take_seat(chromium, MARKUP)
    window(chromium, f"{served.url}/{code}")
    take_seat(
        chromium, MARKUP.upper(), seated=False
    )  # taken (names differ ignoring case): the form asks again
    until(lambda: "already called" in find(chromium, ".problem").text, "the refusal")
    take_seat(chromium, IMAGE)
    until(
        lambda: IMAGE in find(chromium, ".scores").text and MARKUP in find(chromium, ".scores").text,
        "both names in the scoreboard",
    )
    assert not find_all(chromium, "main img") and not find_all(chromium, "main b")
    chromium.get_log("browser")  # what came before
    chromium.execute_script(  # what an injected script would try: the policy refuses both
        "const s = document.createElement('script'); s.textContent = 'window.ran = true';"
        "document.body.append(s); new WebSocket('ws://127.0.0.1:9/elsewhere');"
    )
    refused: list[str] = []  # the console's messages, gathered (each read of the log empties it)
    until(
        lambda: (
            refused.extend(e["message"] for e in chromium.get_log("browser"))
            or (any("script-src" in m for m in refused) and any("connect-src" in m for m in refused))
        ),
        "the policy's refusals of the script and of the connection elsewhere",
    )
    assert chromium.execute_script("return window.ran === undefined")
    from selenium.webdriver.support.ui import Select

    Select(find(chromium, "#language")).select_by_value("ms")
    until(lambda: "Skor" in find(chromium, "main").text or "Mata" in find(chromium, "main").text, "Malay")
    assert "a1, kosong" in labels(chromium)
    assert chromium.execute_script("return document.documentElement.lang") == "ms"


@pytest.mark.slow  # a browser game at a phone's size (5 s): the keyboard test plays the page by default
def test_a_phone_plays_a_6x6_game_by_taps_without_scrolling_sideways(served, chromium):
    chromium.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",  # a window is at least 500 px wide
        {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True},
    )
    chromium.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    code = served.room(6, ({"kind": "remote"}, {"kind": "computer", "level": "easy"}))
    chromium.get(f"{served.url}/{code}")
    take_seat(chromium, "Ana")
    until(lambda: find_all(chromium, "[role=gridcell]"), "the board")
    for cell in ("c3", "d4"):
        tap(chromium, cell, "S")
        until(lambda: find(chromium, ".status").text.startswith("Your turn"), "the computer's move")
    width = chromium.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] == 360, width
    smallest = min(min(c.size["width"], c.size["height"]) for c in find_all(chromium, "[role=gridcell]"))
    assert smallest >= 44
    find(chromium, "[role=gridcell].empty").click()
    for button in find_all(chromium, ".choose button"):
        assert button.size["height"] >= 44 and button.size["width"] >= 44


@pytest.mark.slow
def test_two_windows_play_a_whole_game_a_third_watches_one_reloads(served, chromium):
    """As a new user: the lobby creates a 3x3 game, its link opens in a second window, a third
    watches; the second reloads mid-game and keeps its seat; the game is played to its end."""
    chromium.get(served.url)
    name = until(lambda: find(chromium, "#name"), "the lobby")
    name.send_keys("Ana")
    from selenium.webdriver.support.ui import Select

    Select(find(chromium, "#size")).select_by_value("3")
    find(chromium, "form.create button[type=submit]").click()
    until(lambda: len(chromium.current_url.rstrip("/").rsplit("/", 1)[1]) == 11, "the room's page")
    link = chromium.current_url
    ana = chromium.current_window_handle
    until(
        lambda: find_all(chromium, "[role=grid]") or "starts when" in find(chromium, "main").text,
        "Ana seated",
    )
    bo = window(chromium, served.url)  # Bo finds the game in the lobby's open games
    code = link.rsplit("/", 1)[1]
    until(lambda: clicked(find(chromium, f"a[href='/{code}']")), "the game listed")
    until(lambda: chromium.current_url == link, "its room")
    take_seat(chromium, "Bo")
    watcher = window(chromium, link)
    until(lambda: find(chromium, "form.join"), "the join form")
    find(chromium, "form.join button[type=button]").click()  # Watch
    until(lambda: find_all(chromium, "[role=grid]"), "the watcher's board")
    assert not find_all(chromium, ".actions button.primary")
    moves = [
        (ana, "a1", "S"),
        (bo, "b1", "O"),
        (ana, "c1", "S"),
        (ana, "a2", "O"),
        (bo, "b2", "S"),
        (ana, "c2", "O"),
        (bo, "a3", "S"),
        (bo, "b3", "S"),
        (ana, "c3", "O"),
    ]  # SOS: moves again
    for number, (who, cell, letter) in enumerate(moves):
        chromium.switch_to.window(who)
        if number == 4:  # Bo reloads mid-game: the same seat, from this window's sessionStorage
            chromium.refresh()
            until(lambda: "(you)" in find(chromium, ".scores").text, "Bo back in his seat")
            assert "Bo (you)" in find(chromium, ".scores").text
        until(lambda: find(chromium, ".status").text.startswith("Your turn"), f"{cell}: the mover's turn")
        tap(chromium, cell, letter)
        if cell == "c1":  # said as --plain says it, then drawn in Ana's colour and mark
            assert "SOS for Ana: a1, b1, c1, across." in said(chromium)
            assert [line.get_attribute("class") for line in find_all(chromium, ".lines line")] == ["p0"]
    chromium.switch_to.window(watcher)
    until(lambda: "Game over" in find(chromium, ".status").text, "the end, for the watcher")
    assert "Game over: a draw between Ana and Bo." in said(chromium)
    assert "c3, O" in labels(chromium) and len(find_all(chromium, ".lines line")) == 2  # each SOS drawn
    chromium.switch_to.window(ana)
    until(lambda: find(chromium, ".actions button.primary"), "the rematch button")
    assert "Game over" in find(chromium, ".status").text


# a browser and a --plain process (5 s): tests/test_page.py checks the live region's sentences by default
@pytest.mark.slow
def test_the_page_says_what_a_plain_joiner_in_the_same_room_says(served, chromium, tmp_path):
    """A browser and ``sos-tui join --plain`` play each other: the page's live region says each
    event with the very sentences the line mode prints."""
    code = served.room()
    chromium.get(f"{served.url}/{code}")
    take_seat(chromium, "Ana")
    env = {
        **os.environ,
        "SOS_TUI_DATA_DIR": str(tmp_path / "data"),
        "SOS_TUI_CONFIG_DIR": str(tmp_path / "config"),
    }
    joiner = subprocess.Popen(
        [SOS, "join", f"ws://127.0.0.1:{served.port}/{code}", "--name", "Bo", "--plain", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines: list[str] = []
    threading.Thread(
        target=lambda: lines.extend(line.rstrip("\n") for line in joiner.stdout), daemon=True
    ).start()
    try:
        until(lambda: find(chromium, ".status").text.startswith("Your turn"), "the game to start")
        tap(chromium, "a1", "S")
        until(lambda: "Bo to move." in lines, "the joiner's turn")
        joiner.stdin.write("O b1\n")
        joiner.stdin.flush()
        until(lambda: find(chromium, ".status").text.startswith("Your turn"), "Ana's turn again")
        tap(chromium, "c1", "S")
        until(lambda: "Ana moves again." in lines, "the joiner to hear the SOS")
        assert lines == [
            "A 3 by 3 game, general mode: Ana and Bo.", "Ana to move.", "Ana wrote S at a1.", "Bo to move.",
            "Bo wrote O at b1.", "Ana to move.", "Ana wrote S at c1.", "SOS for Ana: a1, b1, c1, across.",
            "Score: Ana 1, Bo 0.", "Ana moves again.",
        ]  # fmt: skip
        assert said(chromium).splitlines() == lines[-6:]  # the page shows its last six
    finally:
        joiner.kill()
        joiner.wait(TIMEOUT)


def test_a_page_player_whose_opponent_resigns_sees_the_game_over_and_how_it_ended(served, chromium):
    """A game the rules end before its board (the other seat resigns, from a client of protocol 4):
    the page says the result and how, as --plain does, and offers the rematch."""
    code = served.room()
    chromium.get(f"{served.url}/{code}")
    take_seat(chromium, "Ana")
    with connect_ws(f"ws://127.0.0.1:{served.port}/{code}") as other:
        other.send(json.dumps({"type": "hello", "protocol": 1, "minor": 4, "name": "Bo", "token": None}))
        assert json.loads(other.recv(TIMEOUT))["type"] == "welcome"
        until(lambda: "Your turn" in find(chromium, ".status").text, "the game to start")
        other.send(json.dumps({"type": "resign"}))
        until(lambda: "Game over: Ana wins. How it ended: Bo resigned." in find(chromium, ".status").text,
              "the page to say how the game ended")
        assert find(chromium, "[data-key=rematch]")
    problems = [entry["message"] for entry in chromium.get_log("browser") if entry["level"] == "SEVERE"]
    assert not problems


def connect_ws(url: str):
    from websockets.sync.client import connect

    return connect(url)


def test_the_page_lobby_lists_a_bot_and_its_play_button_starts_a_game_against_it(served, chromium):
    """A bot connected to the server (the random engine) is listed with a Play button; pressed, the
    page makes a game at the create form's size against it, and its seat says it is a bot."""
    import sys
    from pathlib import Path

    from selenium.webdriver.support.ui import Select

    from sos_tui.net.bot import run_bot

    engine = f"{sys.executable} {Path(__file__).parent / 'engines' / 'rand.py'}"
    base = f"ws://127.0.0.1:{served.port}"
    playing = run_bot(base, "Randy", engine, lambda _line: None, 2, 50, "Random")
    bot = asyncio.run_coroutine_threadsafe(playing, served.loop)
    try:
        chromium.get(served.url)
        until(lambda: "Randy (bot)" in find(chromium, "main").text, "the bot listed")
        assert "Random · 2 games free" in find(chromium, "main").text
        find(chromium, "#name").send_keys("Ana")
        Select(find(chromium, "#size")).select_by_value("4")
        find(chromium, "[data-key=play-bot]").click()
        until(lambda: len(find_all(chromium, "[role=gridcell]")) == 16, "a 4x4 game")
        until(lambda: "(bot)" in find(chromium, ".scores").text, "the bot's seat marked")
        (room,) = served.server.rooms.values()
        assert room.size == 4 and not room.public and room.seats[1].seat.bot
    finally:
        bot.cancel()
