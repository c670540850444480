"""The new-table form: presets in words, an LLM spec per seat checked as it is typed, and
seats swapped so a person picks the seat they sit in; at 80x24 and larger."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.tui.helpers import answer, on_screen, our_turn, screen_text, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.screens.create_table import describe_config


async def open_form(app: ParlorApp, pilot: Pilot, env: str) -> None:
    await on_screen(pilot, app, "lobby")
    ids = [e["id"] for e in app.session.envs]
    await pilot.press(*["down"] * ids.index(env), "n")
    await on_screen(pilot, app, "create")


def line_with(app: ParlorApp, needle: str) -> str:
    return next((line for line in screen_text(app).splitlines() if needle in line), "")


async def cycle_to(pilot: Pilot, app: ParlorApp, row: str, option: str) -> None:
    """Press → on the focused row until the line naming `row` shows `option`."""
    for _ in range(12):
        if f"‹ {option}" in line_with(app, row):
            return
        await pilot.press("right")
    raise AssertionError(f"{option!r} never showed on {row!r}:\n{screen_text(app)}")


def test_a_preset_reads_as_words():
    config = {"rounds": 10, "fields": 3, "units": 20, "communication_turns": 1,
              "exact_units": False, "reward_rule": "rank", "max_chat_chars": 500, "R": 3}
    assert describe_config(config) == ("10 rounds, 3 fields, 20 units, 1 communication turn, "
                                       "exact units: no, reward rule: rank, "
                                       "max chat chars 500, R 3")
    assert describe_config({"difficulty": "hard", "queries": ["pairwise", "group_count"],
                            "instance": "", "seconds_per_question": 0}) == \
        "difficulty: hard, queries: pairwise, group_count, seconds per question 0"


async def test_presets_are_described_and_an_llm_spec_is_checked_as_typed(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot, "three-player-ipd")
        text = await wait_for_text(pilot, "New table: Three-player")
        assert "5 rounds, 1 communication turn" in text and "communication_turns" not in text
        await cycle_to(pilot, app, "Preset", "long")
        await wait_for_text(pilot, "10 rounds, 2 communication turns")
        await pilot.press("down", "down", "down", "down")  # players, seat 0, seat 1, seat 2
        await cycle_to(pilot, app, "Seat 2", "typed spec")
        await wait_for_text(pilot, "Type this seat's model, e.g. openai:gpt-4o-mini")
        await pilot.press("ctrl+s")  # nothing typed: refused, and the form says why
        await wait_for_text(pilot, "Type the bot spec for seat 2")
        assert app.screen.KIND == "create"
        await pilot.press("down", *"gpt-4o")
        await wait_for_text(pilot, "Start with openai:, anthropic: or openai-compatible:")
        await pilot.press(*["backspace"] * 6, *"openai:gpt 4o")
        await wait_for_text(pilot, "A model name has no spaces")
        await pilot.press(*["backspace"] * 13, *"openai-compatible:llama@localhost")
        await wait_for_text(pilot, "After @ comes the model server's address")
        await pilot.press(*["backspace"] * 33, *"openai:gpt-4o-mini?temperature=0.2")
        await wait_for_text(pilot, "well formed")
        assert app.screen.rows[2].spec == "openai:gpt-4o-mini?temperature=0.2"
        assert "F1 Help".lower() in screen_text(app).lower()  # every key in the footer


async def test_moving_the_person_to_seat_1_seats_you_there(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(140, 45)) as pilot:
        await open_form(app, pilot, "colonel-blotto")
        await cycle_to(pilot, app, "Preset", "small")
        await pilot.press("down", "down")  # players, seat 0 (you, a person)
        assert "(you)" in line_with(app, "Seat 0") and "‹ human" in line_with(app, "Seat 0")
        await pilot.press("shift+down")  # move your seat down: a bot takes seat 0
        await wait_for(pilot, lambda: "(you)" in line_with(app, "Seat 1"), "you in seat 1")
        assert "‹ human" in line_with(app, "Seat 1") and "(you)" not in line_with(app, "Seat 0")
        await pilot.press("shift+down")  # already the last seat: nothing moves
        assert "(you)" in line_with(app, "Seat 1")
        await cycle_to(pilot, app, "Seat 1", "human")
        await pilot.press("up")
        await cycle_to(pilot, app, "Seat 0", "random")
        await pilot.press("ctrl+s")
        await on_screen(pilot, app, "game")
        assert app.session.seat == 1
        seats = app.session.table["seats"]
        assert [s["kind"] for s in seats] == ["bot", "human"]
        assert seats[0]["identity"] == "random" and seats[1]["player"] == "tester"


async def test_a_preset_offers_its_own_player_counts(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_form(app, pilot, "find-the-spy")
        await wait_for_text(pilot, "New table: Find the Spy")
        assert "‹ 4" in line_with(app, "Players") and line_with(app, "Seat 3")
        await cycle_to(pilot, app, "Preset", "passive")  # one solver replays descriptions
        await wait_for(pilot, lambda: "‹ 1" in line_with(app, "Players")
                       and not line_with(app, "Seat 1"), "one seat")
        assert "(1/1)" in line_with(app, "Players")
        await cycle_to(pilot, app, "Preset", "paper")
        await wait_for(pilot, lambda: line_with(app, "Seat 3"), "four seats again")


async def import_file(server_db, path, records) -> None:
    """A file of `records` imported beside the running server, as a host would from a shell."""
    import asyncio
    import json

    from server.cli import main

    path.write_text(json.dumps(records), "utf-8")
    assert await asyncio.to_thread(main, ["--db", str(server_db), "maze", "import",
                                          str(path)]) == 0


async def open_instance_row(app: ParlorApp, pilot: Pilot, env: str) -> None:
    await open_form(app, pilot, env)
    await wait_for(pilot, lambda: "generated from the table" in line_with(app, "Instance"),
                   "the instance row")
    await pilot.press("down", "down")  # players, instance


async def test_a_stored_instance_is_picked_and_played(embedded, server_db, tmp_path):
    from tests.server.commands.test_maze_import import PAPER

    await import_file(server_db, tmp_path / "rdp.json", [PAPER])
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance_row(app, pilot, "review-decision")
        await cycle_to(pilot, app, "Instance", "or-17 (rdp.json) — Quiet Gradients")
        await pilot.press("ctrl+s")
        await our_turn(pilot, app)
        await wait_for_text(pilot, "Quiet Gradients")
        assert app.session.table["config"]["instance"]  # the whole record went to the table
        text = await wait_for_text(pilot, "After stage 1 of 3")
        assert "Convincing and clear" not in text  # the reviews come at stage 2
        # The picker starts at Accept, then at the answer before; → flips it.
        for stage, keys in ((2, ["enter"]), (3, ["right", "enter"]), (None, ["right", "enter"])):
            await answer(pilot, app, *keys)
            if stage:
                await wait_for_text(pilot, f"After stage {stage} of 3")
        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, "right: decision Accept")
        scored = [e for e in app.session.events if e["type"] == "scores"]
        assert [s["right"] for s in scored[0]["data"]["stages"]] == [True, False, True]


async def test_a_stored_spy_game_switches_to_one_solver_and_is_played(embedded, server_db,
                                                                       tmp_path):
    from tests.server.commands.test_maze_release import SPY_PROCESSED

    await import_file(server_db, tmp_path / "spy.json", [SPY_PROCESSED])
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance_row(app, pilot, "find-the-spy")
        assert line_with(app, "Seat 3")  # the paper preset: four seats
        await cycle_to(pilot, app, "Instance", "7 (spy.json) — 4 players, 3 rounds")
        await wait_for(pilot, lambda: "‹ passive" in line_with(app, "Preset")
                       and not line_with(app, "Seat 1"), "the one solver's seat")
        await pilot.press("ctrl+s")
        await our_turn(pilot, app)
        await wait_for_text(pilot, "Small and round, dunked in milk.")
        assert app.session.private["word"] == "cake"


async def test_a_random_stored_instance_is_drawn_by_the_server_at_80x24(embedded, server_db,
                                                                        tmp_path):
    from tests.server.commands.test_maze_release import SPY_PROCESSED, SPY_RAW

    await import_file(server_db, tmp_path / "spy.json", [SPY_PROCESSED, SPY_RAW])
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_instance_row(app, pilot, "find-the-spy")
        await cycle_to(pilot, app, "Instance", "random stored instance")
        await wait_for(pilot, lambda: "‹ passive" in line_with(app, "Preset"),
                       "the one solver's preset")
        await pilot.press("ctrl+s")
        await our_turn(pilot, app)
        # the server drew one of the two; the table tells no one which
        assert app.session.table["config"]["recorded"] == {"hidden": True}
        assert app.session.private["word"] in ("cake", "ocean")  # Player 1 of 7, of raw-8
        assert "raw-8" not in screen_text(app)
