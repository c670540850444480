"""A Secret Mafia day played as a villager in the TUI, keys only, against five scripted bots on
the embedded server: three speeches, then a vote from the picker of valid targets."""

from __future__ import annotations

from engine.registry import get
from tests.tui.helpers import answer, on_screen, our_turn, our_turn_or_end, wait_for, wait_for_text
from tui.app import ParlorApp

# Seat 0 is a Villager at this seed, and the server's bots (seeded from it) kill someone else on
# the first night, so the person plays day 1 (both asserted below).
SEED = 0
SEATS = ["human"] + ["scripted:agent"] * 5


async def _start(pilot, app) -> None:
    await on_screen(pilot, app, "lobby")
    app.client.send("create_table", env="secret-mafia", seats=SEATS, join_seat=0, seed=SEED)
    await our_turn(pilot, app)


async def _our_turn(pilot, app) -> str:
    """The kind of our next decision (its inputs ready), or "over"."""
    turn = await our_turn_or_end(pilot, app)
    return turn["legal"]["kind"] if turn else "over"


async def test_a_villager_plays_a_day_with_speeches_and_a_vote(embedded):
    assert get("secret-mafia").assign_roles(get("secret-mafia").config(), SEED, 6)[0].name \
        == "Villager"
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await _start(pilot, app)
        view = app.session.view
        assert view["private"]["role"] == "Villager" and view["private"]["alive"]
        await wait_for_text(pilot, "Your role: Villager", "Day 1", "speaking: you")
        assert "Mafia" not in view["private"].get("teammates", [])  # a villager has none
        for n in range(3):  # one speech per discussion round
            assert await _our_turn(pilot, app) == "text"
            await answer(pilot, app, *f"speech {n + 1}", "enter")
        assert await _our_turn(pilot, app) == "choice"
        # who voted whom so far, in the panel
        await wait_for_text(pilot, "Your vote — eliminate:", "Votes today:")
        options = [o["id"] for o in app.session.legal["options"]]
        living = [p["seat"] for p in app.session.view["public"]["players"] if p["alive"]]
        assert [int(o) for o in options] == living  # the picker lists exactly the valid targets
        await pilot.press("down", "enter")  # the second option
        chosen = int(options[1])
        await wait_for(pilot, lambda: any(e["type"] == "vote_result"
                                          for e in app.session.events), "the day's result")
        await pilot.pause(0.2)
        chat = app.session.view["public"]["chat"]
        assert [c["text"] for c in chat if c["seat"] == 0] == ["speech 1", "speech 2",
                                                               "speech 3"]
        result = next(e for e in app.session.events if e["type"] == "vote_result")["data"]
        assert {"seat": 0, "target": chosen} in result["votes"]
        # At this seed the day's vote ends the game: the result screen reveals every role.
        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, "Detective", "Doctor", "the Mafia win")


async def test_the_picker_and_panel_fit_80_by_24(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await _start(pilot, app)
        while await _our_turn(pilot, app) == "text":
            await answer(pilot, app, "enter")  # keep quiet
        text = await wait_for_text(pilot, "Your vote — eliminate:")
        assert app.screen.has_class("-narrow")
        first = app.session.legal["options"][0]["id"]
        assert f"{first}  " in text and "Your role: Villager" in text  # a target and the role card


async def test_a_mafia_member_votes_at_night_with_a_note_to_the_teammate(embedded):
    seed = 4  # seat 0 is Mafia
    assert get("secret-mafia").assign_roles(get("secret-mafia").config(), seed, 6)[0].name \
        == "Mafia"
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="secret-mafia", seats=SEATS, join_seat=0, seed=seed)
        await our_turn(pilot, app)
        assert app.session.legal["kind"] == "form"
        await wait_for_text(pilot, "Tonight's victim", "Night 1", "Fellow Mafia")
        first = app.session.legal["fields"][0]["options"][0]["id"]
        await pilot.press("tab", *"quietly", "enter")  # the note line, then send
        await wait_for(pilot, lambda: any(e["type"] == "mafia_vote" and e["data"]["seat"] == 0
                                          for e in app.session.events), "our vote's echo")
        ours = next(e["data"] for e in app.session.events
                    if e["type"] == "mafia_vote" and e["data"]["seat"] == 0)
        assert ours["target"] == int(first) and ours["note"] == "quietly"
