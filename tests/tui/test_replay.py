"""The replay screen, as a person uses it: games played on a real server (a real SQLite file),
opened from the result screen, the lobby's finished games and the profile, stepped forward and
back, jumped, played and paused, seen from each seat and from everywhere."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from textual.pilot import Pilot

from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder
from tests.tui.helpers import (
    answer_until_the_end,
    on_screen,
    screen_text,
    showing,
    wait_for,
    wait_for_text,
    watch,
)
from tui.app import ParlorApp
from tui.screens.replay import ReplayScreen
from tui.widgets.replay.replay_lines import ReplayLines

BOT_SAID = "Let me think about this briefly."  # what the fake model writes before its move


def last_step(text: str) -> int:
    found = re.search(r"step \d+ / (\d+)", text)
    assert found, text
    return int(found.group(1))


async def step_to(pilot: Pilot, at: int) -> str:
    """The screen once it shows frame `at` (drawn, not just asked for)."""
    return await wait_for_text(pilot, f"step {at} / ", "paused")


async def frames(pilot: Pilot, app: ParlorApp) -> list[str]:
    """The screen at each frame of the perspective shown, from the first to the last."""
    await pilot.press("home")
    text = await step_to(pilot, 0)
    shown = [text]
    for at in range(1, last_step(text) + 1):
        await pilot.press("right")
        shown.append(await step_to(pilot, at))
        await wait_for(pilot, lambda at=at: app.screen.cache.transcript(app.screen.seat, at)[2],
                       "the transcript up to the frame")
        shown[-1] = screen_text(app) + "\n".join(app.screen.query_one(ReplayLines).shown)
    return shown


async def finished_in_lobby(pilot: Pilot, app: ParlorApp, env: str) -> None:
    """Wait until the lobby lists a finished `env` table, then open it (Enter)."""
    await on_screen(pilot, app, "lobby")

    def listed() -> bool:
        app.client.send("list_tables")
        return any(t["env"] == env and t.get("status") == "over" for t in app.session.tables)

    await wait_for(pilot, listed, f"a finished {env} table")
    for _ in range(4):
        if app.focused is not None and app.focused.id == "finished-list":
            break
        await pilot.press("tab")
    await pilot.press("enter")
    await on_screen(pilot, app, "replay")


async def test_a_blotto_game_replays_from_the_result_the_lobby_and_the_profile(embedded):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}"
        app = ParlorApp(embedded.url, "tester")
        async with app.run_test(size=(120, 40)) as pilot:
            await on_screen(pilot, app, "lobby")
            app.client.send("create_table", env="colonel-blotto", preset="small",
                            seats=["human", spec], join_seat=0, seed=3)
            await answer_until_the_end(pilot, app, "enter")
            await on_screen(pilot, app, "result")
            await pilot.press("r")
            await on_screen(pilot, app, "replay")
            await wait_for_text(pilot, "seat 0: tester", "Replay — Colonel Blotto")
            # Our own seat: our decisions with their think time, never the bot's reasoning.
            ours = await frames(pilot, app)
            assert any("tester (human)" in t and "think time" in t for t in ours)
            assert not any(BOT_SAID in t for t in ours)
            # The bot's seat: its raw output, with tokens and latency.
            await pilot.press("p")
            await wait_for_text(pilot, "seat 1: openai-compatible")
            theirs = await frames(pilot, app)
            said = next(t for t in theirs if BOT_SAID in t)
            assert "(bot)" in said and "latency" in said and "tokens" in said
            # Everywhere: both seats' decisions, played to the end and stopped there.
            await pilot.press("p")
            text = await wait_for_text(pilot, "omniscient")
            end = last_step(text)
            await pilot.press("home", "+", "space")
            await wait_for_text(pilot, "playing", "4 fps")
            await wait_for_text(pilot, f"step {end} / {end}", "paused")
            # Jumps: the next round, and the picker's last entry.
            await pilot.press("home", "]")
            jumps = app.screen.cache.get(None).jumps
            await wait_for_text(pilot, f"step {jumps[1]['at']} / ", jumps[1]["label"])
            await pilot.press("j")
            await wait_for_text(pilot, jumps[-1]["label"])
            await pilot.press("end", "enter")
            await step_to(pilot, jumps[-1]["at"])
            await pilot.press("escape")
            await on_screen(pilot, app, "result")
            # The lobby's finished games: Enter is the replay (from everywhere).
            await pilot.press("escape")
            await finished_in_lobby(pilot, app, "colonel-blotto")
            await wait_for_text(pilot, "omniscient", f"step 0 / {end}")
            await pilot.press("escape")
            # The profile's recent games.
            await on_screen(pilot, app, "lobby")
            await pilot.press("p")
            await on_screen(pilot, app, "profile")
            await wait_for_text(pilot, "Recent games")
            await pilot.press("tab")
            await wait_for(pilot, lambda: getattr(app.focused, "id", "") == "profile-recent",
                           "the recent games focused")
            await pilot.press("enter")
            await on_screen(pilot, app, "replay")
            await wait_for_text(pilot, "omniscient", f"step 0 / {end}")


async def test_an_unknown_game_is_said_plainly(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.push_screen(ReplayScreen(game_id=999))
        await on_screen(pilot, app, "replay")
        await wait_for_text(pilot, "Cannot show this replay: no game 999 on this server (unknown_game)")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")


async def test_a_mafia_villager_sees_no_night_chat_and_no_roles_but_everywhere_does(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="secret-mafia", seats=["random"] * 6, seed=3)
        await finished_in_lobby(pilot, app, "secret-mafia")
        await wait_for_text(pilot, "omniscient", "Secrets")
        everywhere = "\n".join(await frames(pilot, app))
        assert "Your role: Mafia" in everywhere and "votes to kill" in everywhere
        roles = app.screen.cache.get(None).head["result"]["roles"]
        villager = roles.index("Villager")
        for _ in range(villager + 1):
            await pilot.press("p")
        await wait_for_text(pilot, f"seat {villager}:")
        seen = await frames(pilot, app)
        before_the_end = "\n".join(seen[:-1])
        assert "Your role: Villager" in before_the_end
        for secret in ("votes to kill", "Your role: Mafia", "Your role: Doctor",
                       "Your role: Detective", "Mafia's victim"):
            assert secret not in before_the_end, secret
        # The decision panel collapses at 80x24 and opens with d: only the villager's own.
        await pilot.press("d")
        await wait_for_text(pilot, "Decision")
        assert showing(app, "replay")


async def test_a_socialgrid_replay_jumps_plays_and_switches_at_both_sizes(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="socialgrid", seats=["random"] * 7, seed=3,
                        config={"max_steps": 40, "vote_interval": 20})
        await finished_in_lobby(pilot, app, "socialgrid")
        text = await wait_for_text(pilot, "omniscient", "Replay — SocialGrid")
        end = last_step(text)
        await pilot.press("]")
        jumps = app.screen.cache.get(None).jumps
        await step_to(pilot, jumps[1]["at"])
        await pilot.press("space")
        await wait_for_text(pilot, "playing")
        await pilot.press("space")
        await wait_for_text(pilot, "paused")
        await pilot.press("end", "p")
        await wait_for_text(pilot, "seat 0:", f"step {last_step(screen_text(app))} / ")
        await pilot.press("h")
        await pilot.resize_terminal(80, 24)
        await wait_for_text(pilot, "seat 0:", "Transcript")
        await pilot.press("p")  # seat 1, at the same moment
        await wait_for_text(pilot, "seat 1:")
        await pilot.press("home")
        await step_to(pilot, 0)
        assert end > 0


@pytest.fixture
async def delayed(server_db):
    """A server that shows a bot-only table's game live, one action behind."""
    from server.net.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    server = await asyncio.to_thread(start_embedded, str(server_db), client_seeds=True,
                                     omniscient_delay=1)
    try:
        yield server
    finally:
        await asyncio.to_thread(server.stop)


async def test_a_spectator_follows_a_bot_table_live_until_stepping_back(delayed):
    gate = threading.Semaphore(0)  # each release lets the fake model answer once

    def held(request):
        assert gate.acquire(timeout=60)
        return example_responder(request)

    with FakeOpenAI(responder=held) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?backoff=0.01&timeout=120"
        app = ParlorApp(delayed.url, "tester")
        async with app.run_test(size=(120, 40)) as pilot:
            await on_screen(pilot, app, "lobby")
            app.client.send("create_table", env="colonel-blotto", preset="small",
                            seats=[spec, spec], seed=3)

            def playing() -> bool:
                app.client.send("list_tables")
                return any(t["status"] == "playing" for t in app.session.tables)

            await wait_for(pilot, playing, "the bots' table under way")
            await watch(app, pilot, app.session.tables[0]["id"])
            await pilot.press("o")
            await on_screen(pilot, app, "replay")
            await wait_for_text(pilot, "live (delayed)", "step 0 / 0")
            gate.release(2)  # two moves made: one shown
            await wait_for_text(pilot, "step 1 / 1")
            gate.release(2)
            await wait_for_text(pilot, "step 3 / 3")
            await pilot.press("left")  # stepped back: it stays there as the game goes on
            await step_to(pilot, 2)
            gate.release(2)
            await wait_for_text(pilot, "step 2 / 5")
            await pilot.press("end")  # following again
            gate.release(2)
            await wait_for_text(pilot, "step 7 / 7")
            gate.release(100)
