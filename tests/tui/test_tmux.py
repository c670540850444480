"""A person at a real terminal: `parlor` in tmux, a Blotto game against a bot, keys only."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

DEADLINE = 60.0  # seconds for any one screen to appear: only bounds a hung run


def parlor_command(db: Path) -> list[str]:
    script = Path(sys.executable).with_name("parlor")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "server.cli"]
    return [*base, "--db", str(db), "--name", "tester"]


class Terminal:
    """A tmux server of our own (its own socket), so no other tmux session is touched."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.socket = f"parlor-test-{uuid.uuid4().hex[:8]}"
        # Textual sizes itself from COLUMNS/LINES when set (pytest may set them): drop them so
        # the app fills the real pane.
        self.tmux("new-session", "-d", "-s", "main", "-x", "120", "-y", "40",
                  f"env -u COLUMNS -u LINES {command}", cwd=cwd)

    def tmux(self, *args: str, cwd: Path | None = None) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=True, cwd=cwd).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "main")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "main", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def wait(self, pattern: str) -> str:
        return self.wait_until(lambda text: re.search(pattern, text) is not None, repr(pattern))

    def wait_until(self, condition: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            text = self.screen()
            if condition(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; screen:\n{self.screen()}")


def _round(text: str) -> str | None:
    found = re.search(r"Round (\d+)/", text)
    return found.group(1) if found else None


def test_play_blotto_in_a_real_terminal(tmp_path: Path):
    db = tmp_path / "p.db"
    command = " ".join(parlor_command(db)) + "; echo parlor-exited-$?; sleep 30"
    term = Terminal(command, Path(__file__).parents[2])
    try:
        term.wait(r"New table")  # the lobby's footer
        term.wait(r"Colonel Blotto")
        term.keys("n")
        term.wait(r"New table: Colonel Blotto")
        for _ in range(8):  # the preset row has focus: step to `small`
            if "‹ small ›" in term.screen():
                break
            term.keys("Right")
            time.sleep(0.2)
        assert "‹ small ›" in term.screen()
        term.keys("C-s")
        term.wait(r"YOUR MOVE")
        rounds = 0
        while True:
            text = term.wait(r"YOUR MOVE|Game over")
            if "Game over" in text:
                break
            current = re.search(r"Round (\d+)/", text)
            term.keys("Enter")  # the even split is a valid allocation
            rounds += 1
            term.wait_until(lambda now, c=current: "Game over" in now or "YOUR MOVE" not in now
                            or _round(now) != (c.group(1) if c else None), "our move taken")
        text = term.wait(r"Rewards")
        assert 3 <= rounds <= 5
        you = next(line for line in text.splitlines() if "(you)" in line)
        assert re.search(r"\s[+-]\d", you)  # our reward
        assert "tester" in you
        term.keys("C-q")
        text = term.wait(r"parlor-exited-\d+")
        assert "parlor-exited-0" in text
        assert db.exists()  # the embedded server kept its SQLite file
    finally:
        term.close()
