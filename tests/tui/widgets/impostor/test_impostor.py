"""The Impostor game played by a person in the TUI against three scripted bots on the embedded
server: the word on the banner, the descriptions in speaking order, a draft naming the word
warned of live (by the server's rules) before it is sent, a clean description sent, and the
ballot sent from the form; the reveal at the end. At 100x30 and at 80x24."""

from __future__ import annotations

import pytest

from tests.tui.helpers import on_screen, our_turn, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.widgets.impostor.game import ImpostorGame

SEATS = ["human"] + ["scripted:describer"] * 3


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_a_person_is_warned_of_naming_the_word_then_describes_and_votes(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="impostor", seats=SEATS, join_seat=0, seed=1)
        await our_turn(pilot, app)
        assert app.screen.query(ImpostorGame) and app.session.legal["kind"] == "text"
        word = app.session.private["word"]
        await wait_for_text(pilot, f"Your word: {word}", "1. ", "(you)")
        # A draft that names the word (an inflection of it) is warned of before it is sent.
        await pilot.press(*f"Two {word}s here.")
        await wait_for_text(pilot, "This would be refused: it names your word")
        assert app.session.turn["turn"] == app.session.answered_turn or \
            app.session.answered_turn is None  # nothing was sent
        assert not [e for e in app.session.events if e["type"] == "description"
                    and e["data"]["seat"] == 0]
        for _ in range(len(f"Two {word}s here.")):
            await pilot.press("backspace")
        await pilot.press(*"Something you may meet outside.")
        await wait_for(pilot, lambda: "This would be refused" not in _warning(app),
                       "the warning to go")
        await pilot.press("enter")
        await our_turn(pilot, app)
        assert app.session.legal["kind"] == "form"
        mine = [e["data"] for e in app.session.events if e["type"] == "description"
                and e["data"]["seat"] == 0]
        assert mine == [{"seat": 0, "position": mine[0]["position"],
                         "text": "Something you may meet outside.", "flags": []}]
        await wait_for_text(pilot, "Suspect", "Something you may meet outside.")
        await pilot.press("right", "ctrl+s")  # suspect the next player after oneself
        await on_screen(pilot, app, "result")
        ballot = app.session.game_over["metrics"]["seats"]["0"]
        assert ballot["valid_ballot"] == 1
        # Further down the result: every ballot and how the game ended, and the deal.
        await wait_for(pilot, lambda: "How it ended" in _shown(app, "#im-reveal"), "the reveal")
        reveal = _shown(app, "#im-reveal")
        assert "tester: suspects scripted:describer" in reveal
        setup = app.session.game_over["setup"]
        app.screen.query_one("#result-setup").scroll_visible(animate=False)
        await wait_for_text(pilot, f"The majority's word: {setup['majority_word']}")


def _shown(app, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def _warning(app) -> str:
    return _shown(app, "#im-warning")
