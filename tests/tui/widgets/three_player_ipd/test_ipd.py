"""The IPD widget plays a whole game of the real engine: chat lines, then cooperate/defect toggles.

The engine stands in for the server here (the end-to-end game through a server is in
test_ipd_server.py); the other two seats chat and always defect against us.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from engine.registry import get
from tests.tui.helpers import screen_text
from tui.session import Session
from tui.widgets.env_widget import EnvWidget
from tui.widgets.three_player_ipd.game import IpdGame

TABLE = {"id": "t1", "env": "three-player-ipd", "title": "Three-player IPD", "status": "playing",
         "seats": [{"seat": i, "name": f"Player {i}", "kind": "human" if i == 0 else "bot",
                    "identity": [None, "scripted:tft", "scripted:grim"][i],
                    "player": "me" if i == 0
                    else None, "connected": True} for i in range(3)]}


class IpdHost(App):
    """Plays seat 0 through the widget; seats 1 and 2 are played here directly."""

    def __init__(self) -> None:
        super().__init__()
        env = get("three-player-ipd")
        self.game = env.new_game(env.config("paper"), 3, 3)
        self.session = Session(name="me", url="ws://test", table=TABLE, seat=0)
        self.sent: list[Any] = []
        self.turns = 0

    def compose(self) -> ComposeResult:
        yield IpdGame()

    def on_mount(self) -> None:
        self.sync()

    def sync(self) -> None:
        game = self.game
        while not game.over and 0 not in game.pending():
            seat = min(game.pending())
            legal = game.legal(seat).to_json()
            game.act(seat, f"hi from {seat}" if legal["kind"] == "text"
                     else {f["name"]: "defect" for f in legal["fields"]})
        self.session.events = [e.to_json() for e in game.events_for(0)]
        self.session.view = game.view(0)
        self.session.turn = None
        if not game.over:
            self.turns += 1
            self.session.turn = {"turn": self.turns, "legal": game.legal(0).to_json()}
        self.query_one(IpdGame).show(self.session)

    def on_env_widget_act(self, event: EnvWidget.Act) -> None:
        self.sent.append(event.action)
        self.session.answered()
        self.game.act(0, event.action)
        self.sync()


async def test_ipd_widget_plays_a_whole_game_with_chat_and_decisions():
    app = IpdHost()
    async with app.run_test(size=(110, 45)) as pilot:
        await pilot.pause()
        rounds = app.game.config.rounds
        for r in range(1, rounds + 1):
            await pilot.press(*f"round {r} deal", "enter")
            assert app.sent[-1] == {"text": f"round {r} deal"}
            await pilot.pause()
            text = screen_text(app)
            assert f"round {r} deal" in text and "hi from 2" in text  # the chat so far
            assert "Toward scripted:tft" in text and "Toward scripted:grim" in text
            # One name per player; the env's seat names appear once, as the key to bots' chat.
            assert "In chat: me = Player 0 · scripted:tft = Player 1 · scripted:grim = Player 2" in text
            rest = text.replace("me = Player 0 · scripted:tft = Player 1 · scripted:grim = Player 2", "")
            assert "Player 1" not in rest and "P1" not in rest
            if r == 1:
                await pilot.press("down", "d", "enter")  # cooperate with 1, defect on 2
                assert app.sent[-1] == {"1": "cooperate", "2": "defect"}
            else:
                await pilot.press("space", "down", "c", "enter")  # flip 1 to defect
                assert app.sent[-1] == {"1": "defect", "2": "cooperate"}
            await pilot.pause()
        assert app.game.over
        history = app.game.view(0)["public"]["history"]
        assert history[0]["decisions"]["0"] == {"1": "cooperate", "2": "defect"}
        assert history[1]["decisions"]["0"] == {"1": "defect", "2": "cooperate"}
        text = screen_text(app)
        scores = app.game.view(0)["public"]["scores"]
        assert f"= {scores[0]}" in text  # the running score in the widget
        assert f"+{history[-1]['gains'][0]}" in text  # the round table shows gains


async def test_up_on_the_first_opponent_stays_there_and_an_empty_line_passes():
    """Finding 8: ↑ on the first toggle used to wrap to the last (a person defected on the wrong
    opponent), and an empty chat turn could not be skipped."""
    app = IpdHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # nothing typed: pass this chat turn
        assert app.sent[-1] == {"text": ""}
        await pilot.pause()
        await pilot.press("up", "d", "enter")
        assert app.sent[-1] == {"1": "defect", "2": "cooperate"}
