"""`parlor web` in a real headless Chromium (Debian's package, driven by Playwright): a person
opens the page, picks a name, plays Colonel Blotto against a bot to the end by keys typed into
the page and reads the result; two tabs are two sessions under two names; Ctrl+C stops it all.

What the page shows is read from the bytes its terminal (xterm.js) is sent over the page's own
websocket, fed to a terminal emulator (pyte): xterm.js draws on a canvas, so the page's DOM holds
no text, and textual.js keeps its terminal out of reach of page scripts. Keys go the way a
person's do: to the terminal's focused input, through the browser's keyboard.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.server.net.test_kill import free_port
from tests.server.net.test_serve_process import ServeProcess

CHROMIUM = Path("/usr/bin/chromium")  # Debian's package: `apt-get install chromium`
# Skipped, saying so, where Chromium is missing (.ci/run installs it and says so if it cannot).
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no /usr/bin/chromium: apt-get install chromium "
                                       "chromium-driver (.ci/run does)")
sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
pyte = pytest.importorskip("pyte")

# No download, no sandbox (tests run as root in CI), nothing the browser does on its own.
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
DEADLINE = 60.0  # seconds for any one screen to appear: only bounds a hung run
SYNC_START, SYNC_END = b"\x1b[?2026h", b"\x1b[?2026l"  # a frame drawn at once (DEC mode 2026)
SERVING = re.compile(r"Parlor in a browser at (http://\S+)")


class WebProcess:
    """`parlor web` in a process of its own, its output in a file."""

    def __init__(self, tmp: Path, server: str) -> None:
        self.port = free_port()
        self.log = tmp / "web.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "web", "--server", server, "--port",
                 str(self.port)], stdout=out, stderr=subprocess.STDOUT, text=True)
        end = time.monotonic() + DEADLINE
        while not (found := SERVING.search(self.output())) or "Press Ctrl+C" not in self.output():
            assert self.proc.poll() is None, f"parlor web exited: {self.output()}"
            assert time.monotonic() < end, f"parlor web did not start: {self.output()}"
            time.sleep(0.05)
        self.url = found.group(1)

    def output(self) -> str:
        return self.log.read_text()

    def tabs(self) -> set[int]:
        """The processes `parlor web` started (one per tab), and theirs."""
        found: set[int] = set()
        parents = [self.proc.pid]
        while parents:
            pid = parents.pop()
            try:
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            found.update(map(int, children))
            parents.extend(map(int, children))
        return found

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise
        return self.proc.returncode


class Tab:
    """One browser tab on the page, and what its terminal shows."""

    def __init__(self, browser, url: str) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 800})
        self.screen: pyte.Screen | None = None
        self.stream = pyte.ByteStream()
        self.requests: list[str] = []
        self.drawing = False  # inside a synchronized update
        self.shown = ""  # the screen as of the last complete update
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._websocket)
        self.page.goto(url, wait_until="domcontentloaded")

    def _websocket(self, ws) -> None:
        size = parse_qs(urlsplit(ws.url).query)
        self.screen = pyte.Screen(int(size["width"][0]), int(size["height"][0]))
        self.stream.attach(self.screen)
        ws.on("framereceived", self._received)
        ws.on("framesent", self._sent)

    def _received(self, payload: bytes | str) -> None:
        if not isinstance(payload, bytes):  # text frames are textual-serve's own (pong)
            return
        self.stream.feed(payload)
        # Textual sends each frame as a synchronized update, drawn by xterm.js at its end: a
        # frame half received is not what the page shows.
        start, end = payload.rfind(SYNC_START), payload.rfind(SYNC_END)
        if start > end:
            self.drawing = True
        elif end >= 0:
            self.drawing = False
        if not self.drawing and self.screen is not None:
            self.shown = "\n".join(self.screen.display)

    def _sent(self, payload: bytes | str) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = re.search(r'"width":\s*(\d+).*"height":\s*(\d+)', payload)
            if size and self.screen is not None:
                self.screen.resize(int(size.group(2)), int(size.group(1)))

    def text(self) -> str:
        return self.shown

    def wait_until(self, condition: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            text = self.text()
            if condition(text):
                return text
            self.page.wait_for_timeout(50)  # lets the browser's events in
        raise AssertionError(f"timed out waiting for {what}; the tab shows:\n{self.text()}")

    def wait(self, pattern: str) -> str:
        return self.wait_until(lambda text: re.search(pattern, text) is not None, repr(pattern))

    def keys(self, *keys: str) -> None:
        self.page.focus(".xterm-helper-textarea")  # where xterm.js takes a person's keys
        for key in keys:
            self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        self.page.focus(".xterm-helper-textarea")
        self.page.keyboard.type(text)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebProcess]:
    server = ServeProcess(tmp_path, db=tmp_path / "served.db")  # a free port, a real SQLite file
    web = WebProcess(tmp_path, server.url)
    try:
        yield web
    finally:
        web.stop()
        server.stop()


@pytest.fixture
def browser() -> Iterator[object]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _alive(pid: int) -> bool:
    """`pid` runs (a process that ended but was not waited for yet, a zombie, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _preset(text: str) -> str | None:
    """The choice the create-table form's first row (its preset) shows."""
    found = re.search(r"‹ (\S+) ›", text)
    return found.group(1) if found else None


def _round(text: str) -> str | None:
    found = re.search(r"Round (\d+)/", text)
    return found.group(1) if found else None


def test_a_person_plays_blotto_against_a_bot_in_the_browser(web, browser):
    tab = Tab(browser, web.url)
    assert tab.page.title() == "Parlor"
    tab.wait(r"Your name at ws://127\.0\.0\.1:\d+")
    tab.type("ada")
    tab.keys("Enter")
    tab.wait(r"you are ada")
    tab.wait(r"Colonel Blotto")
    tab.keys("ArrowDown", "ArrowDown", "n")  # listed by id: amongagents, codenames, blotto
    tab.wait(r"New table: Colonel Blotto")
    for _ in range(8):  # the preset row has focus: step to `small`, one preset at a time
        if (shown := _preset(tab.text())) == "small":
            break
        tab.keys("ArrowRight")
        tab.wait_until(lambda now, was=shown: _preset(now) != was, "the next preset")
    assert _preset(tab.text()) == "small"
    tab.keys("Control+s")  # seat 1 is the scripted bot
    rounds: list[str | None] = []
    while "Game over" not in (text := tab.wait(r"YOUR MOVE|Game over")):
        rounds.append(_round(text))
        tab.keys("Enter")  # the even split is a valid allocation
        tab.wait_until(lambda now: "Game over" in now or _round(now) != rounds[-1],
                       "the next round")
    text = tab.wait(r"Rewards")
    assert rounds == [str(n) for n in range(1, len(rounds) + 1)] and 3 <= len(rounds) <= 5
    you = next(line for line in text.splitlines() if "(you)" in line)
    assert "ada" in you and re.search(r"\s[+-]\d", you)  # our reward
    # Everything the page loaded came from `parlor web` itself: nothing told a third party.
    origin = web.url.rstrip("/")
    assert tab.requests and all(url.startswith(origin) for url in tab.requests), tab.requests

    # `parlor web` killed outright: the tab's app does not live on, holding its seat.
    apps = web.tabs()
    assert apps
    web.proc.kill()
    web.proc.wait(20)
    end = time.monotonic() + DEADLINE
    while any(_alive(pid) for pid in apps):
        assert time.monotonic() < end, "a tab's app outlived parlor web"
        time.sleep(0.1)


def test_two_tabs_are_two_sessions_with_a_name_each(web, browser):
    ada, other = Tab(browser, web.url), Tab(browser, web.url)
    ada.wait(r"Your name at")
    ada.type("ada")
    ada.keys("Enter")
    ada.wait(r"you are ada")
    # The second tab is a session of its own: ada's name is not handed to it by this machine.
    other.wait(r"Your name at")
    other.type("ada")
    other.keys("Enter")
    other.wait(r"belongs to another player")
    other.wait(r"Your name at")  # asked again
    other.type("bob")
    other.keys("Enter")
    other.wait(r"you are bob")
    assert "you are ada" in ada.text()
    assert len(web.tabs()) >= 2  # a process per tab

    tabs = web.tabs()
    assert web.stop() == 0  # Ctrl+C: a clean stop, the tabs' processes with it
    assert "Traceback" not in web.output()
    assert not any(_alive(pid) for pid in tabs)
    for tab in (ada, other):  # and each page says so
        tab.page.get_by_text("This session has ended").wait_for(state="visible",
                                                                timeout=DEADLINE * 1000)
