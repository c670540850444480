"""`profile` and `report` over real websockets: one's own profile whole, another's only as the
leaderboard shows them, clear errors for an unknown name or env, and the report builder's
reply passed through with what was asked."""

from __future__ import annotations

import asyncio
import threading

from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over


async def _ada_plays_blotto(server, name: str = "ada") -> Client:
    ada = await Client.connect(server.url, name)
    await ada.request("create_table", env="colonel-blotto", preset="small",
                      seats=["human", "random"], seed=5, join_seat=0)
    await play_until_over(ada)
    return ada


async def test_ones_own_profile_has_games_ratings_metrics_recent_games_and_history(server):
    ada = await _ada_plays_blotto(server)
    over = [m for m in ada.received if m["type"] == "game_over"][-1]
    mine = await ada.request("profile")
    assert mine["type"] == "profile" and mine["name"] == "ada" and mine["games"] == 1
    [env] = mine["envs"]
    assert env["env"] == "colonel-blotto" and env["games"] == 1
    outcome = over["outcomes"]["0"]
    assert (env["wins"], env["draws"], env["losses"]) == (
        int(outcome == "win"), int(outcome == "draw"), int(outcome == "loss"))
    [rating] = env["ratings"]
    after = over["rating_changes"]["0"]["after"]
    assert rating["scheme"] == "trueskill" and rating["pool"] == "people"
    assert rating["mu"] == after["mu"] and rating["provisional"] is True
    assert rating["rating"] == after["mu"] - 3 * after["sigma"]
    rounds = {m["label"]: m["value"] for m in env["metrics"]}
    assert rounds["Rounds won"] == over["metrics"]["seats"]["0"]["rounds_won"]
    [recent] = mine["recent"]
    assert recent["game_id"] == over["game_id"] and recent["outcome"] == outcome
    assert recent["rated"] is True and recent["table_id"] == over["table_id"]
    [point] = mine["history"]
    assert point["env"] == "colonel-blotto" and point["rating"] == rating["rating"]
    # The same with the name given, in another case: one name however it is spelt.
    assert (await ada.request("profile", name="ADA"))["envs"] == mine["envs"]
    await ada.close()


async def test_another_players_profile_shows_only_what_the_leaderboard_shows(server):
    ada = await _ada_plays_blotto(server)
    bob = await Client.connect(server.url, "bob")
    seen = await bob.request("profile", name="ada")
    board = {r["identity"]: r for r in
             (await bob.request("leaderboard", env="colonel-blotto"))["rows"]}
    [env] = seen["envs"]
    row = board["human:ada"]
    assert (env["games"], env["wins"], env["draws"], env["losses"]) == (
        row["games"], row["wins"], row["draws"], row["losses"])
    assert env["metrics"] == [] and seen["recent"] == []  # which tables, what she did: hers
    assert env["ratings"][0]["mu"] == row["mu"]
    # A bot on the leaderboard has a public profile too.
    bot = await bob.request("profile", name="random")
    assert bot["name"] == "random" and bot["envs"][0]["ratings"][0]["pool"] == "bots"
    # bob has played nothing: he may see his own empty profile, nobody else may see him.
    assert (await bob.request("profile"))["games"] == 0
    refused = await ada.request("profile", name="bob")
    assert refused["type"] == "error" and refused["code"] == "unknown_player"
    assert "bob" in refused["message"]
    nobody = await ada.request("profile", name="nobody-at-all")
    assert nobody["code"] == "unknown_player"
    for c in (ada, bob):
        await c.close()


async def test_a_running_games_seats_stay_out_of_every_profile(server):
    ada = await _ada_plays_blotto(server)
    before = await ada.request("profile")
    await ada.request("create_table", env="colonel-blotto", preset="small",
                      seats=["human", "random"], join_seat=0)
    await ada.wait_for("your_turn")
    assert await ada.request("profile") == {**before, "ref": before["ref"] + 2}
    await ada.close()


async def test_a_report_is_the_builders_reply_read_apart_from_the_loop(make_server):
    calls = []

    def build(conn, env, pool, by):
        finished = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        calls.append((env, pool, by, threading.current_thread() is threading.main_thread()))
        return {"env": env, "title": "Colonel Blotto", "pooled": f"{finished} games",
                "left_out": [], "sections": [], "notes": []}

    server = await make_server(reports=build)
    ada = await _ada_plays_blotto(server)
    reply = await ada.request("report", env="colonel-blotto", pool="people", by="kind")
    assert reply["type"] == "report" and reply["pooled"] == "1 games"
    # The server adds the leaderboard's first players' ratings over time (the report's plot).
    board = (await ada.request("leaderboard", env="colonel-blotto"))["rows"]
    over = reply["ratings_over_time"]
    assert over["scheme"] == "trueskill"
    assert [(s["who"], s["points"]) for s in over["series"]] == [
        (r["identity"].removeprefix("human:"), [r["conservative"]]) for r in board]
    assert (reply["pool"], reply["by"]) == ("people", "kind")
    assert calls == [("colonel-blotto", "people", "kind", False)]  # a worker thread
    plain = await ada.request("report", env="colonel-blotto")
    assert (plain["pool"], plain["by"]) == (None, None)
    # Asked again and again, at once or not, a report is computed once until a game ends.
    calls.clear()
    others = [await Client.connect(server.url, f"reader{i}") for i in range(3)]
    again = await asyncio.gather(*(c.request("report", env="colonel-blotto", pool="people",
                                             by="kind") for c in others))
    assert all(r["pooled"] == reply["pooled"] for r in again) and calls == []
    for c in others:
        await c.close()
    await (await _ada_plays_blotto(server, "bob")).close()
    after = await ada.request("report", env="colonel-blotto", pool="people", by="kind")
    assert after["pooled"] == "2 games" and len(calls) == 1
    for bad, code, words in (({"env": "no-such-game"}, "unknown_env", "no-such-game"),
                             ({"env": "colonel-blotto", "pool": "martians"}, "bad_message",
                              "people, bots, mixed"),
                             ({"env": "colonel-blotto", "by": "hat"}, "bad_message",
                              "identity, kind")):
        refused = await ada.request("report", **bad)
        assert refused["type"] == "error" and refused["code"] == code, refused
        assert words in refused["message"]
    await ada.close()


async def test_a_server_without_reports_says_so(server):
    ada = await Client.connect(server.url, "ada")
    refused = await ada.request("report", env="colonel-blotto")
    assert refused["code"] == "unavailable" and "parlor report colonel-blotto" in \
        refused["message"]
    await ada.close()
