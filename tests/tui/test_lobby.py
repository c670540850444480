"""The lobby shows what a real embedded server hosts."""

from __future__ import annotations

from tests.tui.helpers import on_screen, screen_text, wait_for, wait_for_text
from tui.app import ParlorApp


async def test_lobby_lists_the_servers_envs(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        text = await wait_for_text(pilot, "Colonel Blotto")
        envs = app.session.envs
        assert {e["id"] for e in envs} >= {"colonel-blotto"}
        for i, env in enumerate(envs):  # every env with its description, scrolled to in turn
            if i:
                await pilot.press("down")
            text = await wait_for_text(pilot, env["title"])
            assert env["description"][:30] in text.replace("\n", " ").replace("│", " ") or \
                env["description"].split()[0] in text
        assert "tester" in text  # the name we connected with
        # The leaderboard opens from the lobby with a key and returns with Escape.
        await pilot.press("l")
        await on_screen(pilot, app, "leaderboard")
        await wait_for_text(pilot, "Leaderboard")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        assert "New table" in screen_text(app)  # keys are listed in the footer


async def test_tab_reaches_every_list_and_finished_tables_stay_apart(embedded):
    """Finding 2: tab did nothing, and `j` on a finished table at the top of the list joined it,
    pulling the player off the table where they were waiting."""
    from tests.server.conftest import Client

    app = ParlorApp(embedded.url, "dan")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        await wait_for_text(pilot, "No tables yet")  # the empty lobby says what to do
        erin = await Client.connect(embedded.url, "erin")
        done = await erin.request("create_table", env="colonel-blotto",
                                  seats=["human", "random"], join_seat=0)
        await erin.request("leave", table_id=done["table"]["id"])  # void: nobody had moved
        waiting = await erin.request("create_table", env="colonel-blotto",
                                     seats=["human", "human"], join_seat=0)
        live_id, over_id = waiting["table"]["id"], done["table"]["id"]
        app.client.send("list_tables")
        await wait_for(pilot, lambda: {t["id"] for t in app.session.tables} >= {live_id, over_id},
                       "both tables")
        await wait_for(pilot, lambda: "No tables yet" not in screen_text(app), "the hint gone")
        live = app.screen.query_one("#table-list")
        finished = app.screen.query_one("#finished-list")
        assert [str(k.value) for k in live.rows] == [live_id]
        assert [str(k.value) for k in finished.rows] == [over_id]
        await pilot.press("tab")
        assert app.focused is live
        await pilot.press("tab")
        assert app.focused is finished
        await pilot.press("j")  # a finished game cannot be joined
        await wait_for(pilot, lambda: any("has ended" in n.message for n in app._notifications),
                       "the notice that the game has ended")
        assert app.session.table is None and app.screen.KIND == "lobby"
        await pilot.press("shift+tab", "j")
        await on_screen(pilot, app, "game")
        assert app.session.table["id"] == live_id and app.session.seat == 1
        await erin.close()


async def test_the_lobby_shows_the_database_and_most_games_at_80x24(embedded, server_db):
    """Issue 22: `parlor` printed its database path, but the TUI covered it at once; at 80x24
    the lobby showed two games at a time and pointed to a list "on the left" that was above."""
    for size, games in (((80, 24), 6), ((140, 45), 12)):
        app = ParlorApp(embedded.url, "tester", database=str(server_db))
        async with app.run_test(size=size) as pilot:
            await on_screen(pilot, app, "lobby")
            text = await wait_for_text(pilot, "Colonel Blotto", "No tables yet")
            compact = "".join(text.split())  # a long path is folded over lines
            assert f"Gamesaresavedin{server_db}" in compact
            titles = [e["title"] for e in app.session.envs]
            assert sum(title in text for title in titles) >= min(games, len(titles)), text
            where = "above" if size[0] < 110 else "on the left"
            assert f"Pickagame{where.replace(' ', '')}andpressn" in compact


async def test_an_empty_waiting_table_leaves_the_lobby_with_its_only_person(embedded):
    """Issue 22: a table stayed listed after its only person left the waiting room with Esc."""
    app = ParlorApp(embedded.url, "solo")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="three-player-ipd", join_seat=0,
                        seats=["human", "human", "scripted:tit-for-tat"])
        await on_screen(pilot, app, "table")
        table_id = app.session.table["id"]
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        app.client.send("list_tables")
        await wait_for_text(pilot, "No tables yet")
        assert table_id not in screen_text(app)
        assert all(t["id"] != table_id or t["status"] == "closed" for t in app.session.tables)
