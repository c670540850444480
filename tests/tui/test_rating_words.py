"""Ratings as a person reads them (issue 22): after a SocialGrid game with the lobby's default
bots the result screen shows the person's new rating, the bot's as held and why; a game that
is not rated says why on the result screen and on the leaderboard. Real embedded server, at
80x24 and 140x45."""

from __future__ import annotations

import re

import pytest

from tests.tui.helpers import (
    answer_until_the_end,
    on_screen,
    our_turn,
    wait_for,
    wait_for_footer,
    wait_for_text,
)
from tui.app import ParlorApp

SIZES = [(80, 24), (140, 45)]


def flat(text: str) -> str:
    """The screen's words as one line: wrapped lines joined, box borders left out."""
    return re.sub(r"\s*│[\s│]*|\s+", " ", text)


@pytest.mark.parametrize("size", SIZES)
async def test_a_person_with_socialgrids_default_bots_is_rated(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="socialgrid", seats=["human"] + ["scripted:agent"] * 6,
                        join_seat=0, seed=3, config={"max_steps": 3})
        await answer_until_the_end(pilot, app, ".")  # stand still, three steps
        await on_screen(pilot, app, "result")
        over = app.session.game_over
        after = over["rating_changes"]["0"]["after"]["mu"]
        text = await wait_for_text(pilot, "Rewards", "(you)")
        mine = next(line for line in text.splitlines() if "(you)" in line)
        assert f"μ {after:.1f} (first game)" in mine  # TrueSkill over sides, not Elo
        assert "Elo" not in mine
        bots = [line for line in text.splitlines() if re.match(r"\s*\d+ +scripted:agent #", line)]
        assert bots and all("held" in line for line in bots)
        assert "scripted:agent sat on more than one side and keeps its rating." in flat(text)
        assert "Rated by TrueSkill over sides" in flat(text)
        await pilot.press("l")  # the leaderboard lists the person, in the league people play in
        await on_screen(pilot, app, "leaderboard")
        text = await wait_for_text(pilot, "tester (you)", "People and mixed tables")
        assert "No rated games" not in text
        keys = await wait_for_footer(pilot, app, "Other league")
        assert "t Other league" in keys
        await pilot.press("t")  # the Crew Elo league: bots only, nobody yet
        await wait_for_text(pilot, "Crew Elo league", "No rated games of SocialGrid yet")
        await pilot.press("t")
        await wait_for_text(pilot, "tester (you)", "People and mixed tables")


@pytest.mark.parametrize("size", SIZES)
async def test_a_game_that_is_not_rated_says_why_on_the_result_and_the_leaderboard(embedded,
                                                                                 size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="codenames", seats=["human"] + ["scripted:agent"] * 3,
                        join_seat=0, seed=1)
        await our_turn(pilot, app)  # Red starts: nobody has moved
        await pilot.press("ctrl+l")
        await on_screen(pilot, app, "confirm")
        await pilot.press("y")
        await on_screen(pilot, app, "result")
        text = flat(await wait_for_text(pilot, "Rewards"))
        assert "The game is void" in text
        assert ("Not rated: the game is void (Red Spymaster left the game before any person "
                "moved).") in text
        # A game of bots where one bot holds every seat: self-play, not rated either.
        app.client.send("create_table", env="codenames", seats=["scripted:agent"] * 4, seed=2)
        await pilot.press("l")
        await on_screen(pilot, app, "leaderboard")
        replies = app.session.leaderboard_replies
        for _ in range(100):  # ask again (r) until the bots' game is over
            if (replies.get("codenames") or {}).get("unrated_count") == 2:
                break
            await pilot.press("r")
            await pilot.pause(0.05)
        text = flat(await wait_for_text(pilot, "2 games not rated"))
        assert "No rated games of Codenames yet" in text
        assert "Not rated: every player sat on more than one side (self-play)" in text
        if size[1] > 30:  # the older one too, on a taller screen
            assert "Not rated: the game is void (Red Spymaster left" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.KIND == "result", "the result again")
