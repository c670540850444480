"""The leaderboard: each player's record (wins, draws, losses) from the store, and the screen a
person reads it on, with what the rating means."""

from __future__ import annotations

from engine.core import GameRecord, Result
from server.store.store import Store
from tests.tui.helpers import on_screen, screen_text, wait_for_text
from tui.app import ParlorApp


async def test_store_counts_wins_draws_and_losses_per_identity(tmp_path):
    store = await Store.open(tmp_path / "x.db")
    mu = {"value": 25.0}

    async def play(result: Result, identities: list[str], rated: bool = True) -> None:
        seats = [{"identity": i, "name": i, "kind": "bot", "settings": {}} for i in identities]
        game_id = await store.create_game(table_id="t", env="g", rules_version="1",
                                          preset=None, config={}, seed=0, seats=seats)
        record = GameRecord("g", "1", {}, 0, len(identities), [], [], result)
        mu["value"] += 0.5  # any update will do: the ratings are not what is tested here

        def rate(current):
            return {i: (current.get(i), (mu["value"], 5.0)) for i in set(identities)}
        await store.finish_game(game_id, record=record, metrics={}, identities=identities,
                                statuses={s: "finished" for s in range(len(identities))},
                                rate=rate if rated else None)

    try:
        await play(Result({0: 1.0, 1: -1.0}, (0,), "a wins"), ["a", "b"])
        await play(Result({0: 0.0, 1: 0.0}, (), "tie"), ["a", "b"])
        # Three ranked seats (the IPD's rank rule): the middle place, reward 0, is a draw.
        await play(Result({0: -1.0, 1: 1.0, 2: 0.0}, (1,), "b on points"), ["a", "b", "c"])
        await play(Result({0: 1.0, 1: 1.0, 2: -1.0}, (0, 1), "team"), ["m", "m", "c"])
        await play(Result({0: 1.0, 1: -1.0}, (0,), "self-play"), ["m", "m"])  # a draw for m
        await play(Result({0: -1.0, 1: -1.0}, (), "both forfeit"), ["a", "c"])
        await play(Result({0: 1.0, 1: -1.0}, (0,), "void", void=True), ["a", "b"], rated=False)
        board = {r["identity"]: r for r in await store.leaderboard("g")}
        record = {i: (r["games"], r["wins"], r["draws"], r["losses"]) for i, r in board.items()}
        assert record == {"a": (4, 1, 1, 2), "b": (3, 1, 1, 1), "c": (3, 0, 1, 2),
                          "m": (2, 1, 1, 0)}
        for row in board.values():  # the fields the protocol already had are still there
            assert row["conservative"] == row["mu"] - 3 * row["sigma"]
    finally:
        await store.close()


async def test_the_leaderboard_shows_each_bots_record_and_what_rating_means(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        for seed in (1, 2):  # two games between server bots, played without us
            app.client.send("create_table", env="colonel-blotto", preset="small",
                            seats=["random", "scripted:adaptive"], seed=seed)
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("colonel-blotto"), "l")
        await on_screen(pilot, app, "leaderboard")
        board = app.session.leaderboards
        for _ in range(100):  # ask again (r) until both games are rated
            await pilot.press("r")
            await pilot.pause(0.05)
            if sum(r["games"] for r in board.get("colonel-blotto", [])) == 4:
                break
        rows = board["colonel-blotto"]
        text = screen_text(app)
        for column in ("Player or bot", "Rating", "μ", "σ", "Games", "Wins", "Draws", "Losses"):
            assert column in text
        top = rows[0]
        line = next(line for line in text.splitlines() if line.strip("│ ").startswith("1 "))
        assert top["identity"] in line and f"{top['conservative']:.1f}" in line
        assert f"{top['wins']}" in line and f"{top['losses']}" in line
        assert top["wins"] + top["draws"] + top["losses"] == top["games"] == 2
        assert "Rank is by rating = μ − 3σ" in text and "99%" in text
        assert f"▸ {top['identity']}: 2 rated games" in text
        await pilot.press("down")  # the highlighted row, in full
        await wait_for_text(pilot, f"▸ {rows[1]['identity']}: 2 rated games")
        await pilot.press("right")  # the next game: nothing rated yet
        await wait_for_text(pilot, "No rated games of")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
