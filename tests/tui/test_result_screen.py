"""The result screen, as a person reads it after a game: who won, rewards, how each seat's game
ended, rating changes, metrics in plain words, the final position and the hidden setup."""

from __future__ import annotations

import re

from textual.pilot import Pilot

from tests.tui.fake_server import FakeServer, serve_fake
from tests.tui.helpers import answer_until_the_end, on_screen, wait_for_footer, wait_for_text
from tui.app import ParlorApp


async def play_blotto(app: ParlorApp, pilot: Pilot) -> None:
    """Create a small Blotto table against `random` and submit the default split every round."""
    await on_screen(pilot, app, "lobby")
    app.client.send("create_table", env="colonel-blotto", preset="small",
                    seats=["human", "random"], join_seat=0, seed=3)
    await answer_until_the_end(pilot, app, "enter")
    await on_screen(pilot, app, "result")


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


async def test_after_a_blotto_game_the_result_reads_in_words(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(140, 45)) as pilot:
        await play_blotto(app, pilot)
        text = await wait_for_text(pilot, "Rewards")
        over = app.session.game_over
        result = over["result"]
        mine, theirs = result["rewards"]["0"], result["rewards"]["1"]
        won = 0 in result["winners"]
        assert ("You won!" if won else "Winner: random") in text
        # The env's reason, with each seat called by the one name every screen uses.
        reason = result["reason"].replace("Commander Alpha", "tester")
        assert reason.replace("Commander Beta", "random")[:40] in flat(text)
        assert "Commander" not in text
        row = next(line for line in text.splitlines() if "(you)" in line)
        assert "tester (you)" in row and f"{mine:+g}" in row
        assert ("won" if won else "lost" if result["winners"] else "draw") in row
        assert "finished" in row
        after = over["rating_changes"]["0"]["after"]["mu"]
        assert f"μ {after:.1f} (first game)" in row  # a fresh server: our first game
        other = next(line for line in text.splitlines() if line.strip().startswith("1 "))
        assert "random" in other and f"{theirs:+g}" in other
        # Metrics with labels in words, one column per seat, not a nested key dump.
        assert "Rounds played" in text and "Per seat" in text and "Fields won" in text
        assert "rounds_played" not in text and "fields_won" not in text
        # The final position is the Blotto widget's own history, and nothing was hidden.
        await pilot.press("pagedown")
        text = await wait_for_text(pilot, "Final position")
        first = app.session.view["public"]["history"][0]["allocations"][0]
        assert " ".join(f"{k}{v}" for k, v in first.items()) in text  # our first move
        await pilot.press("pagedown", "pagedown")
        await wait_for_text(pilot, "Nothing was hidden in this game.")
        await pilot.press("enter")
        await on_screen(pilot, app, "lobby")


async def test_a_second_game_shows_the_rating_move_and_fits_80_by_24(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_blotto(app, pilot)
        await pilot.press("escape")
        await play_blotto(app, pilot)
        text = await wait_for_text(pilot, "Rewards")
        change = app.session.game_over["rating_changes"]["0"]
        before, after = change["before"]["mu"], change["after"]["mu"]
        expected = f"μ {before:.1f} → {after:.1f} ({after - before:+.1f})"
        assert expected in flat(text)
        keys = await wait_for_footer(pilot, app, "Back to lobby")
        assert "Leaderboard" in keys and "Help" in keys
        await pilot.press("l")  # the leaderboard of this game, and back
        await on_screen(pilot, app, "leaderboard")
        await wait_for_text(pilot, "tester")
        await pilot.press("escape")
        await on_screen(pilot, app, "result")


class RevealingServer(FakeServer):
    """The fake server, with what the real one adds: display names, plain metric labels, a
    hidden setup in game_over, and a seat that ran out of time."""

    async def send(self, msg):
        if msg.get("type") == "welcome":
            for env in msg["envs"]:
                env["metric_labels"] = {"rounds_played": "Rounds actually played",
                                        "usage.tokens": "Tokens used"}
        if msg.get("type") == "table":
            for seat in msg["table"]["seats"]:
                seat["display"] = "Ada Lovelace" if seat["kind"] == "human" else "Random Rita"
        if msg.get("type") == "game_over":
            msg["setup"] = {"roles": [{"name": "Spy", "side": "spies"},
                                      {"name": "Villager", "side": "village"}],
                            "secret_word": "lighthouse"}
            msg["statuses"] = {"0": "finished", "1": "timeout"}
            msg["metrics"] = {"game": {"rounds_played": 4, "cooperation_rate": 0.3333},
                              "seats": {"0": {"reward": 1.0, "invalid_rate": 0.25},
                                        "1": {"reward": -1.0, "invalid_rate": 0.0,
                                              "usage": {"tokens": 1234, "cost_usd": 0.0021}}}}
        await super().send(msg)


async def test_setup_labels_display_names_and_statuses_from_the_server():
    fake = RevealingServer()
    async with serve_fake(fake):
        app = ParlorApp(fake.url, "ada")
        async with app.run_test(size=(140, 45)) as pilot:
            await play_blotto(app, pilot)
            text = await wait_for_text(pilot, "Rewards")
            row1 = next(line for line in text.splitlines() if "Random Rita" in line)
            assert "ran out of time" in row1 and "not rated" in row1
            assert "Ada Lovelace (you)" in text
            assert "Rounds actually played" in text and "Cooperation rate" in text
            assert "Invalid rate" in text and "Tokens used" in text
            assert "Usage: cost usd" in text and "0.0021" in text
            await pilot.press("end")
            text = await wait_for_text(pilot, "What was hidden")
            assert re.search(r"Roles: Ada Lovelace\s*Spy \(spies side\)", text)
            assert re.search(r"Roles: Random Rita\s*Villager \(village side\)", text)
            assert re.search(r"Secret word\s*lighthouse", text)
