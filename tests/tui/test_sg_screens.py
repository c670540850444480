"""What a newcomer hit on SocialGrid's screens (issue 22), each against a real server on
127.0.0.1 at 80x24 and 140x45: a reason typed on a trust row, leaving a tick-paced game,
the transcript behind ctrl+t, the create form's player count, waiting with z, and the result
screen's final position, hidden setup and per-seat table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.helpers import (
    answer,
    answered,
    on_screen,
    our_turn,
    our_turn_or_end,
    screen_text,
    showing,
    wait_for,
    wait_for_text,
)
from tests.tui.test_create_table import line_with, open_form
from tests.tui.widgets.socialgrid.test_socialgrid import PATCH, Host, _open, _play, _public, _spy
from tui.app import ParlorApp
from tui.screens.confirm import ConfirmScreen
from tui.session import Session
from tui.widgets.socialgrid.ballot_form import BallotForm
from tui.widgets.socialgrid.game import SocialGridGame

SIZES = pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=["80x24", "140x45"])
WAIT = {"choice": "7", "wait": True}


async def _meeting(pilot, app: ParlorApp) -> list[dict[str, Any]]:
    """A person and a random bot; two NOOPs bring the scheduled meeting; the acts sent."""
    await _open(pilot, app, preset="navigation-oracle", seats=["human", "random"], seed=3,
                config={"vote_interval": 2})
    sent = _spy(app)
    for _ in range(2):
        await _play(pilot, app, "full_stop")
    await wait_for(pilot, lambda: isinstance(app.focused, BallotForm), "the ballot, focused")
    return sent


@SIZES
async def test_a_reason_typed_on_a_trust_row_goes_to_the_thought_and_votes_nobody(
        embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        sent = await _meeting(pilot, app)
        await pilot.press("down")  # random's trust row
        await pilot.press(*"evidence")  # its `v` once voted for the row, the rest was lost
        await wait_for_text(pilot, "evidence")
        assert "◀ vote" not in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: sent[2:], "the ballot")
        assert sent[2] == {"vote": "skip", "trust_1": 0.5, "thought": "evidence"}


@SIZES
async def test_the_leave_dialog_stays_while_a_tick_table_steps_on(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await _open(pilot, app, preset="people", seats=["human"] + ["random"] * 4, seed=3,
                    config={"tick_ms": 200})
        game = app.screen
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        step = _public(app)["step"]
        await wait_for(pilot, lambda: _public(app)["step"] >= step + 3, "three more steps")
        await pilot.pause(0.1)
        assert isinstance(app.screen, ConfirmScreen)  # the steps did not close it
        assert app.screen_stack[-2] is game  # nor replaced the game beneath it
        # ... which kept up with them meanwhile
        await wait_for(pilot, lambda: f"Step {_public(app)['step']}/" in str(
            game.query_one("#sg-panel").render()), "the game beneath, up to date")
        await pilot.press("y")
        await on_screen(pilot, app, "result")


async def test_ctrl_t_shows_the_transcript_a_line_an_event_at_80x24(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await _meeting(pilot, app)  # events came while the transcript was hidden
        await pilot.press("ctrl+t")
        await wait_for_text(pilot, "You are a crewmate.",
                            "The game starts: 2 players (0 impostors) on 2x2 rooms of 10x10.")


async def test_ctrl_t_shows_blottos_transcript_whole_at_80x24(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="colonel-blotto", seats=["human", "random"],
                        join_seat=0, seed=1)
        for _ in range(2):  # two rounds played while the transcript is hidden
            await answer(pilot, app, "enter")
        await our_turn(pilot, app)
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: app.screen.query_one("#transcript").display,
                       "the transcript")
        await pilot.pause(0.2)
        inside = [line[1:-1].strip() for line in screen_text(app).splitlines()
                  if line.startswith("│") and line.endswith("│")]
        assert sum(len(line) == 1 for line in inside) < 3, screen_text(app)  # not a char a line
        assert any(len(line) > 20 for line in inside), screen_text(app)


@SIZES
async def test_a_new_socialgrid_table_seats_its_presets_own_count(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await open_form(app, pilot, "socialgrid")
        await wait_for(pilot, lambda: len(app.screen.rows) == 7, "seven seat rows")
        assert "‹ 7" in line_with(app, "Players")  # 5 crew and 2 impostors, not 3 and 2
        assert "league-10x10" in line_with(app, "Preset")
        await pilot.press("right")  # the next preset
        await wait_for(pilot, lambda: "league-14x14" in line_with(app, "Preset"), "14x14")
        assert "‹ 7" in line_with(app, "Players")


def _waiting_session(turn: int, **seen: Any) -> Session:
    observation = {"mode": "limited", "patch": [r + " " for r in PATCH], "origin": [0, 0],
                   "players": {}, "corpses": [], **seen}
    private = {"name": "Player_0", "seat": 0, "role": "crewmate", "status": "alive",
               "pose": [2, 2, 100], "facing": 100, "observation": observation, "tasks": [],
               "allowed": [0, 7]}
    public = {"step": turn, "max_steps": 100, "phase": "tasks", "players": [
        {"seat": s, "name": f"Player_{s}", "status": "alive"} for s in range(4)]}
    legal = {"kind": "choice", "options": [{"id": "0"}, {"id": "7"}]}
    return Session(name="me", url="ws://test", seat=0,
                   view={"public": public, "private": private},
                   turn={"turn": turn, "legal": legal})


@SIZES
async def test_z_waits_a_noop_a_step_until_someone_comes_into_sight(size):
    game = SocialGridGame()
    app = Host(game)
    async with app.run_test(size=size) as pilot:
        body = {"pos": [1, 3], "position": "R00(1,3)"}
        game.show(_waiting_session(1, corpses=[body]))  # a body already in sight: no news
        game.focus()
        await pilot.press("z")
        assert app.sent == [WAIT]
        assert "Waiting (z)" in screen_text(app)
        for turn in (2, 3):
            game.show(_waiting_session(turn, corpses=[body]))
            game.show(_waiting_session(turn, corpses=[body]))  # drawn again: sent once
        await pilot.pause()
        assert app.sent == [WAIT] * 3
        seen = {"Player_3": {"pos": [2, 3], "facing": 101, "position": "R00(2,3)"}}
        game.show(_waiting_session(4, corpses=[body], players=seen))
        await pilot.pause()
        assert app.sent == [WAIT] * 3  # news: the wait ends, the step is the person's
        assert "Stopped waiting: seat 3 in sight" in screen_text(app)
        await pilot.press("z", "right")  # waiting again; a key of one's own ends it
        assert app.sent == [WAIT] * 4
        assert "Waiting (z)" not in screen_text(app)


@SIZES
async def test_z_waits_until_the_meeting_and_the_waits_are_no_stall(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await _open(pilot, app, preset="navigation-oracle", seats=["human"], seed=38,
                    config={"vote_interval": 8, "max_steps": 9})
        sent = _spy(app)
        await pilot.press("z")
        await wait_for_text(pilot, "Stopped waiting: a meeting")
        assert sent == [WAIT] * 8 and _public(app)["phase"] == "vote"
        await pilot.press("enter")  # skip
        await our_turn(pilot, app)
        await pilot.press("full_stop")  # the last step, a NOOP of one's own
        await on_screen(pilot, app, "result")
        metrics = app.session.game_over["metrics"]["seats"]["0"]
        assert metrics["steps"] == 9
        assert not metrics.get("noop_stall")  # eight waits and a NOOP: no stall


async def test_the_result_shows_the_dead_the_roles_the_map_and_whole_names(embedded):
    # One size: the result screen's layout at both is the other tests' (a game played by
    # keys to a kill is the slow part).
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, app, preset="league-10x10", seats=["human"] + ["scripted:agent"] * 6,
                    seed=5, config={"max_steps": 80, "kill_cooldown": 3})
        while (turn := await our_turn_or_end(pilot, app)) is not None:
            await pilot.press("enter" if _public(app)["phase"] == "vote" else "full_stop")
            await answered(pilot, app, turn)
        await wait_for(pilot, lambda: showing(app, "result"), "the result")
        over = app.session.game_over
        killed = [s for s, m in over["metrics"]["seats"].items() if m.get("kills")]
        assert killed, "the game has a kill"
        names = app.session.seat_names()
        players = {p["seat"]: p for p in _public(app)["players"]}
        dead = [s for s, p in players.items() if p["status"] == "dead"]
        assert dead and all(p.get("role") for p in players.values())
        text = await _whole_result(pilot, app)
        assert f"{names[dead[0]]} dead" in text.replace("\n", " ")
        # The hidden setup as the game draws it: roles by name, the map, no raw lists.
        assert "Spawns" not in text and "Map ####" not in text
        impostors = [s for s, p in players.items() if p["role"] == "impostor"]
        assert f"{impostors[0]} {names[impostors[0]]}  impostor" in text
        assert "████████" in text.split("What was hidden")[1]
        # The per-seat table: seats numbered under a line of whole names, the env's reward.
        assert "-1 loss" not in text and "Reward (env points" in text
        assert "1 scripted:agent #1" in text.split("Per seat")[1].splitlines()[1]


async def _whole_result(pilot, app: ParlorApp) -> str:
    """Every line of the result screen, paged through."""
    box = app.screen.query_one("#result-box")
    seen: list[str] = []
    while True:
        await pilot.pause(0.1)
        seen += [line for line in screen_text(app).splitlines()[:-1] if line not in seen]
        if box.scroll_y >= box.max_scroll_y:
            return "\n".join(seen)
        await pilot.press("pagedown")
