"""Screens as a person sees them, at 80x24 and 140x45: the lobby, each game mid-game and its
result screen, compared with the SVGs checked in under __snapshots__ (pytest-textual-snapshot;
`pytest tests/tui/test_snapshots.py --snapshot-update` writes them again after a deliberate
change, to be looked at before they are committed).

The screens are fed the messages of real games on a real server (tests/tui/recorded_games.py),
so what they show is what the server sends; the app itself opens no connection here."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.helpers import on_screen, our_turn
from tests.tui.recorded_games import Messages, record
from tui.app import ParlorApp
from tui.client import ParlorClient

SIZES = {"80x24": (80, 24), "140x45": (140, 45)}


class ReplayApp(ParlorApp):
    """The Parlor app with no connection: messages come from the test."""

    def connect(self) -> None:
        pass


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Messages]:
    home = tmp_path_factory.mktemp("snapshots")
    return {env: record(env, home / f"{env}.db")
            for env in ("colonel-blotto", "three-player-ipd")}


def _upto(messages: Messages, stop: Any) -> Messages:
    """The messages up to and including the first for which `stop(msg)` holds."""
    out: Messages = []
    for msg in messages:
        out.append(msg)
        if stop(msg):
            break
    return out


def _feed(messages: Messages):
    async def run_before(pilot) -> None:
        app = pilot.app
        for msg in messages:
            app.post_message(ParlorClient.Received(msg))
            await pilot.pause()
        # The screen the messages led to, built and focused (on our turn: its inputs too).
        await on_screen(pilot, app, app.screen.KIND)
        if app.screen.KIND == "game" and app.session.awaiting_us:
            await our_turn(pilot, app)
        await pilot.pause(0.2)
        app.screen.set_focus(app.screen.focused)  # no cursor blink differences
    return run_before


def _mid_game(messages: Messages, env: str) -> Messages:
    """Up to root's turn after two resolved rounds (IPD: in the decision phase)."""
    def stop(msg: dict[str, Any]) -> bool:
        if msg["type"] != "your_turn":
            return False
        public = msg["view"]["public"]
        return len(public.get("history") or []) >= 2 and (
            env != "three-player-ipd" or public.get("phase") == "decide")
    return _upto(messages, stop)


def _lobby(messages: Messages) -> Messages:
    return [messages[0], messages[-1]]  # welcome, then the table list after the game


def _app() -> ReplayApp:
    return ReplayApp("ws://127.0.0.1:1", "root", server_key="snapshots")


@pytest.mark.parametrize("size", SIZES)
def test_lobby(snap_compare, games, size):
    assert snap_compare(_app(), terminal_size=SIZES[size],
                        run_before=_feed(_lobby(games["colonel-blotto"])))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("env", ["colonel-blotto", "three-player-ipd"])
def test_game(snap_compare, games, env, size):
    assert snap_compare(_app(), terminal_size=SIZES[size],
                        run_before=_feed(_mid_game(games[env], env)))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("env", ["colonel-blotto", "three-player-ipd"])
def test_result(snap_compare, games, env, size):
    messages = games[env][:-1]  # up to game_over
    assert snap_compare(_app(), terminal_size=SIZES[size], run_before=_feed(messages))


@pytest.mark.parametrize("env", ["colonel-blotto", "three-player-ipd"])
async def test_80x24_shows_the_whole_game(games, env):
    """Finding 5: at 80x24 the header's score was cut, history columns shrank to `yo`/`op`, the
    IPD chat pane had no height, toggles wrapped and the footer was cut."""
    from tests.tui.helpers import screen_text
    from tui.widgets.chat_log import ChatLog

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _feed(_mid_game(games[env], env))(pilot)
        text = screen_text(app)
        lines = [line for line in text.splitlines() if line.strip()]
        assert lines[-1].rstrip().endswith("^q Quit")  # the footer, whole
        header = " ".join(lines[:2])
        public = app.session.view["public"]
        scores = public.get("score") or public.get("scores")
        names = [app.session.seat_name(i) for i in range(len(scores))]
        assert " – ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)) in header
        if env == "colonel-blotto":
            assert "root (you)" in text and "scripted:adaptive" in text  # history titles
        else:
            assert app.screen.query_one(ChatLog).size.height >= 3
            assert "Toward scripted:tit-for-tat  cooperate  defect" in text  # one line each
            assert "vs tit-for-tat" in text and "vs grim" in text
