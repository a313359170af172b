"""``sos-tui web`` in a real browser: Debian's headless Chromium driven by Selenium through
chromium-driver (its path given, so Selenium downloads nothing). The page is opened as a player
would, keys are typed into the terminal, and the move must reach the data folder.

The screen's text is read from what the page's WebSocket receives (a hook added before the page's
scripts run): xterm.js draws on a canvas, which has no text to read."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time

import pytest

from .support.helpers import children
from .support.webpage import (
    ESCAPE,
    SOS,
    TIMEOUT,
    Web,
    autosaved_moves,
    board_cell,
    cells_of,
    empty_cells,
    rows_of,
    until,
    where,
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or shutil.which(DRIVER) is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver: "
           ".ci/run does)")

HOOK = """
window.__screen = [];
const Native = window.WebSocket;
window.__sent = [];
window.WebSocket = function (...args) {
  const socket = new Native(...args);
  const send = socket.send.bind(socket);
  socket.send = (data) => { window.__sent.push(data); send(data); };
  socket.addEventListener("message", (event) => {
    window.__screen.push(typeof event.data === "string" ? event.data
                         : new TextDecoder().decode(event.data));
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, Native);
"""


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the tests of this module (a start costs about a second of CPU):
    each test opens its page, on a server of its own (an origin of its own), and leaves it for
    about:blank (its tab's process ends)."""
    selenium = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = selenium.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,900", "--no-first-run"):
        options.add_argument(argument)
    driver = selenium.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(TIMEOUT)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    try:
        yield driver
    finally:
        driver.quit()


def screen_text(driver) -> str:
    return ESCAPE.sub("", "".join(driver.execute_script("return window.__screen || []")))


def screen_cells(driver) -> dict[tuple[int, int], str]:
    return cells_of("".join(driver.execute_script("return window.__screen || []")))


def terminal_size(driver) -> tuple[int, int]:
    """The columns and rows the page told the server its terminal has (its last resize)."""
    for message in reversed(driver.execute_script("return window.__sent || []")):
        if isinstance(message, str) and message.startswith('["resize"'):
            size = json.loads(message)[1]
            return size["width"], size["height"]
    raise AssertionError("the page never sent its size")


def wait_for_text(driver, text: str, since: int = 0) -> None:
    until(lambda: text in screen_text(driver)[since:], f"{text!r} in the browser")


def test_a_move_typed_and_a_cell_clicked_in_chromium_reach_the_data_folder(browser, data):
    """The keys: enter starts a game, ``s`` writes S on a1. The mouse: a click on the canvas at the
    cell b2's computed offset writes S there."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    server = Web()
    try:
        started = time.monotonic()
        browser.get(server.url)
        wait_for_text(browser, "Host over the network")  # the setup screen
        click(browser, 1, 1)  # the terminal takes the keys (its middle may be a button of the setup)
        mark = len(screen_text(browser))
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        wait_for_text(browser, "Player 1 to move", mark)
        ActionChains(browser).send_keys("s").perform()
        until(lambda: autosaved_moves(data) == ["S a1"], "S a1 in the data folder")
        wait_for_text(browser, "Player 2 to move", mark)  # the screen may be drawn after the save
        assert time.monotonic() - started < TIMEOUT
        click(browser, *board_cell(screen_cells(browser), "b2"))
        until(lambda: autosaved_moves(data) == ["S a1", "S b2"], "S b2 in the data folder")
    finally:
        browser.get("about:blank")  # the tab is closed: its process ends
        assert server.stop() == 0


def click(driver, row: int, column: int) -> None:
    """Click the terminal cell (row, column), at its computed offset on the page's canvas."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    columns, rows = terminal_size(driver)
    screen = driver.find_element(By.CSS_SELECTOR, ".xterm-screen")
    width, height = screen.size["width"], screen.size["height"]
    x = (column - 0.5) * width / columns - width / 2  # Selenium's offsets are from the centre
    y = (row - 0.5) * height / rows - height / 2
    ActionChains(driver).move_to_element_with_offset(screen, round(x), round(y)).click().perform()


def click_text(driver, text: str, on_row_with: str = "") -> None:
    def shown() -> bool:
        return any(text in line and on_row_with in line for line in rows_of(screen_cells(driver)).values())

    until(shown, f"{text!r} on the screen")
    click(driver, *where(screen_cells(driver), text, on_row_with))


def screen_lines(driver) -> str:
    return "\n".join(rows_of(screen_cells(driver)).values())


def shows(driver, *texts: str) -> bool:
    """Whether a row of the screen shows all of ``texts``."""
    return any(all(text in line for text in texts) for line in rows_of(screen_cells(driver)).values())


# Slow: a whole game. The page's keys and clicks are checked by the test above; a whole game
# against the computer by mouse reports by tests/test_web.py's
# test_a_game_against_the_computer_is_played_to_its_end_with_mouse_reports.
@pytest.mark.slow
def test_a_game_against_the_computer_is_played_to_its_end_in_chromium(browser, data):
    """Set up with the mouse (3x3, seat 2 the easy computer), click the first empty cell on each
    turn until the game is over; the finished game is in the history (``sos-tui history``)."""
    server = Web()
    try:
        browser.get(server.url)
        wait_for_text(browser, "Host over the network")
        click_text(browser, "6 x 6")
        click_text(browser, "3 x 3", on_row_with="3 x 3")
        until(lambda: shows(browser, "Board size", "3 x 3"), "3x3 chosen")
        click_text(browser, "Human", on_row_with="Seat 2")
        click_text(browser, "Computer · easy")
        until(lambda: shows(browser, "Seat 2", "Computer · easy"), "the computer chosen")
        click_text(browser, "Start", on_row_with="Open…")
        wait_for_text(browser, "Player 1 to move")
        for _turn in range(9):
            cells = screen_cells(browser)
            empty = empty_cells(cells, 3)
            if not empty:  # the board filled by the last move, its end not drawn yet (a busy machine)
                until(lambda: "Game over" in screen_lines(browser), "the end of a full board")
                break
            click(browser, *board_cell(cells, empty[0]))

            def answered(before=len(empty)) -> bool:  # noqa: B008
                screen = screen_lines(browser)
                return "Game over" in screen or (  # an SOS plays again: maybe no answer yet
                    "Player 1 to move" in screen and len(empty_cells(screen_cells(browser), 3)) < before)

            until(answered, "the computer's answer or the end")
            if "Game over" in screen_lines(browser):
                break
        else:
            raise AssertionError("no end after nine moves on 3x3")
    except AssertionError as error:
        raise AssertionError(f"{error}; the screen:\n{screen_lines(browser)}") from None
    finally:
        browser.get("about:blank")
        assert server.stop() == 0
    history = subprocess.run([SOS, "history", "--json"], capture_output=True, text=True, timeout=TIMEOUT)
    games = json.loads(history.stdout)
    assert history.returncode == 0 and len(games["games"]) == 1, games


@pytest.mark.skipif(not os.environ.get("SOS_TUI_SCREENSHOT"),
                    reason="README's picture, taken when asked: SOS_TUI_SCREENSHOT=docs/web.png")
def test_the_readme_picture(browser, data, monkeypatch):
    """docs/web.png: a whole 8x8 game in Chromium, Ana (who plays the hints: H, then the letter
    at the cell it shows) against the medium computer, in a larger font; the finished board, once
    the game-over dialog is closed (esc). The tabs' last setup (``web-settings``) is that game."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    from sos_tui.storage.settings import CONFIG_ENV_VAR, save_settings

    def keys(*typed: str) -> None:
        ActionChains(browser).send_keys(*typed).perform()

    monkeypatch.setenv(CONFIG_ENV_VAR, str(data / "web-settings"))
    save_settings({"setup": {"size": 8, "mode": "general", "seats": [
        {"name": "Ana", "kind": "human"}, {"name": "Computer 2", "kind": "computer", "level": "medium"}]}})
    server = Web()
    try:
        browser.get(server.url + "?fontsize=20")
        wait_for_text(browser, "Host over the network")
        click_text(browser, "Start", on_row_with="Open…")
        wait_for_text(browser, "Ana to move")

        def ana_plays() -> None:
            """H, then the letter of the hint at its cell (where the cursor goes); on the computer's
            turn H does nothing, and no hint comes (AssertionError)."""
            before, mark = len(empty_cells(screen_cells(browser), 8)), len(screen_text(browser))
            keys("H")
            hint = until(lambda: re.findall(r"Hint: ([SO]) [a-h]\d", screen_text(browser)[mark:]),
                         "a hint", timeout=5)
            keys(hint[-1].lower())
            until(lambda: len(empty_cells(screen_cells(browser), 8)) < before, "Ana's move")

        while not shows(browser, "Game over"):
            with contextlib.suppress(AssertionError):
                ana_plays()
        keys(Keys.ESCAPE)  # back to the board
        until(lambda: not shows(browser, "Rematch") and not shows(browser, "Hint:"), "the board alone")
        browser.save_screenshot(os.environ["SOS_TUI_SCREENSHOT"])
    except AssertionError as error:
        raise AssertionError(f"{error}; the screen:\n{screen_lines(browser)}") from None
    finally:
        browser.get("about:blank")
        assert server.stop() == 0


@contextlib.contextmanager
def another_site(page: str):
    """``page`` served at / by a plain HTTP server on another port of 127.0.0.1: another origin."""
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page) as site:
        threading.Thread(target=site.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{site.server_address[1]}/"
        finally:
            site.shutdown()


@pytest.mark.slow  # a browser and a server (4 s): test_web's origin check refuses the same socket by default
def test_a_page_of_another_origin_cannot_open_a_tab(browser):
    """Any web page may try the user's ``sos-tui web`` (on the next port here): its socket is
    refused before a process starts, and the page learns nothing but that it failed."""
    server = Web()
    try:
        attempt = f"""<!DOCTYPE html><title>trying</title><script>
            const socket = new WebSocket("ws://127.0.0.1:{server.port}/ws");
            socket.onopen = () => {{ document.title = "opened"; }};
            socket.onclose = (event) => {{ document.title = "closed " + event.code; }};
            </script>"""
        with another_site(attempt) as url:
            browser.get(url)
            until(lambda: browser.title != "trying", "the socket to open or close")
            assert browser.title == "closed 1006"  # refused during the handshake
        assert not children(server.process.pid)
        browser.get(server.url)  # the server's own page plays
        wait_for_text(browser, "Host over the network")
    finally:
        browser.get("about:blank")
        assert server.stop() == 0


def page_fills_the_window(driver) -> None:
    """The terminal covers the whole window, painted in the app's background (the default theme's
    #121212) where whole rows and columns leave some over, with room for the game's 44 columns."""
    def covered() -> bool:
        return driver.execute_script("""
            const area = document.querySelector(".xterm-viewport").getBoundingClientRect();
            const paint = getComputedStyle(document.querySelector(".xterm-viewport")).backgroundColor;
            return area.left === 0 && area.top === 0 && area.width === window.innerWidth
                && area.height === window.innerHeight && paint === "rgb(18, 18, 18)";""")

    until(covered, "the terminal to cover the window in the app's background")
    screen = driver.execute_script("return document.querySelector('.xterm-screen').getBoundingClientRect()")
    assert screen["bottom"] == driver.execute_script("return window.innerHeight")  # the footer at the bottom
    assert terminal_size(driver)[0] >= 44


# a browser at two sizes and a server (5 s): the page is checked in chromium by default by the move test
@pytest.mark.slow
def test_the_page_has_a_title_fills_the_window_and_says_when_its_game_stopped(browser):
    """At a desktop's size and a phone's: a title, the terminal filling the window (no strip of
    another colour under the footer), and a phone's window given room for the game. A tab whose
    process was killed says so."""
    from selenium.webdriver.common.by import By

    server = Web()
    try:
        for width, height, mobile in ((1280, 800, False), (390, 844, True)):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            browser.get(server.url)
            assert browser.title == "SOS — sos-tui"
            wait_for_text(browser, "Host over the network")
            page_fills_the_window(browser)
        (app,) = children(server.process.pid)
        os.kill(app, signal.SIGKILL)
        until(lambda: "-closed" in browser.find_element(By.TAG_NAME, "body").get_attribute("class"),
              "the page to close the tab")
        message = browser.find_element(By.ID, "closed-message").text
        assert message.startswith("This tab's game stopped unexpectedly")
    finally:
        browser.get("about:blank")
        assert server.stop() == 0
