"""SocialGrid in the TUI: the map drawn from hand-made observations, the ballot's keys, and with
a real embedded server a person walking to a task by the oracle's hint, voting at a meeting,
keys for actions the rules do not allow, and a spectator who sees no positions."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App, ComposeResult

from tests.server.conftest import Client
from tests.tui.helpers import (
    on_screen,
    our_turn,
    screen_text,
    wait_for,
    wait_for_footer,
    wait_for_text,
    watch,
)
from tui.app import ParlorApp
from tui.session import Session
from tui.widgets.socialgrid.ballot_form import BallotForm
from tui.widgets.socialgrid.game import SocialGridGame
from tui.widgets.socialgrid.grid_map import GridMap, MapState
from tui.widgets.socialgrid.keys import ACTIONS, BY_NAME

ARROWS = {100: "→", 101: "↓", 102: "←", 103: "↑"}
# A 5x5 room seen from (2, 2): own tasks at (1, 1) (under way) and (3, 1) (done), another's
# station at (3, 3) hidden behind nothing, a body at (1, 3), Player_3 at (2, 3) facing down, a
# closed door and an open door in the walls, a tile out of sight, a column beyond the map edge.
PATCH = ["#######",
         "#T.T..D",
         "#.@..?O",
         "#CP.T.#",
         "####B##"]


def _seen(facing: int = 100, **extra: Any) -> dict[str, Any]:
    return {"pose": [2, 2, facing], "facing": facing, "observation": {
        "mode": "limited", "patch": [r + " " for r in PATCH], "origin": [0, 0],
        "players": {"Player_3": {"pos": [2, 3], "facing": 101, "position": "R00(2,3)"}},
        "corpses": [{"pos": [1, 3], "position": "R00(1,3)"}]},
        "tasks": [{"task_name": "common_task_1", "station": [1, 1], "progress": "1/3",
                   "completed": False},
                  {"task_name": "short_task_2", "station": [3, 1], "progress": "8/8",
                   "completed": True}], **extra}


class Host(App):
    CSS_PATH = ParlorApp.CSS_PATH

    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.widget = widget
        self.sent: list[Any] = []

    def compose(self) -> ComposeResult:
        yield self.widget

    def on_ballot_form_submitted(self, event: BallotForm.Submitted) -> None:
        self.sent.append(event.ballot)

    def on_env_widget_act(self, event: SocialGridGame.Act) -> None:
        self.sent.append(event.action)


async def test_the_map_draws_facings_players_bodies_tasks_doors_and_fog():
    grid = GridMap()
    async with Host(grid).run_test(size=(60, 12)) as pilot:
        for facing, arrow in ARROWS.items():
            grid.show(MapState.from_private(_seen(facing)))
            await pilot.pause()
            rows = grid.render().plain.splitlines()
            assert rows[2][4:6] == " " + arrow  # the seat itself: its facing's arrow
        assert rows[0] == "█" * 14 + "  "  # walls; the column beyond the edge is blank
        assert rows[1] == "██T1 ·✓2 · ·▐▌  "  # own tasks: under way, done; a closed door
        assert rows[2] == "██ · ↑ · ·░░▕▏  "  # a tile out of sight; an open door
        assert rows[3][2:4] == " X" and rows[3][4:6] == "3↓"  # a body, Player_3 facing down
        assert rows[3][8:10] == "T " and rows[4][8:10] == "B!"  # another's station, button
        styles = {name: grid.get_component_rich_style(f"grid-map--{name}")
                  for name in ("corpse", "seat-3", "me", "task-doing", "task-done")}
        assert len({str(s) for s in styles.values()}) == len(styles)  # each its own colour
        legend = grid.legend({3: "bob"}).plain
        assert "↑ you" in legend and "X body" in legend and "3→ bob" in legend


async def test_a_big_global_map_is_cut_to_a_window_around_the_seat():
    rows = ["#" * 23] + ["#" + "." * 21 + "#" for _ in range(21)] + ["#" * 23]
    rows[20] = rows[20][:18] + "@" + rows[20][19:]
    private = {"pose": [18, 20, 103], "facing": 103,
               "observation": {"mode": "global", "map": rows, "origin": [0, 0]}}
    grid = GridMap()
    async with Host(grid).run_test(size=(20, 8)) as pilot:
        grid.show(MapState.from_private(private))
        await pilot.pause()
        assert grid.size.height == 8 and grid.size.width == 20
        shown = grid.render().plain.splitlines()
        assert len(shown) == 8 and all(len(r) == 20 for r in shown)
        assert shown[-1] == "█" * 20  # the bottom wall, below the seat
        assert any(" ↑" in r for r in shown)


LEGAL = {"kind": "form", "fields": [
    {"name": "vote", "kind": "choice", "default": "skip",
     "options": [{"id": "1", "label": "Player_1"}, {"id": "2", "label": "Player_2"},
                 {"id": "skip", "label": "Skip"}]},
    *({"name": f"trust_{s}", "kind": "float", "min": 0.0, "max": 1.0, "default": 0.5,
       "optional": True} for s in (1, 2, 3)),
    {"name": "thought", "kind": "text", "max_chars": 2000, "optional": True}]}


async def test_the_ballot_is_filled_in_with_keys():
    from rich.text import Text

    form = BallotForm()
    app = Host(form)
    async with app.run_test(size=(80, 20)) as pilot:
        form.start(LEGAL, lambda s: {"1": "ann", "2": "bob", "3": "cy"}[s],
                   Text("Meeting 1: ann pressed the emergency button"), previous={"3": 0.8})
        form.focus()
        await pilot.pause()
        text = screen_text(app)
        assert "‹ Skip ›" in text and "1 ann" in text and "0.5 unsure" in text
        assert "0.8 trusted" in text  # last meeting's trust is where it starts
        await pilot.press("right")  # the vote: Skip -> Player_1
        await pilot.press("down", "right", "right")  # ann's trust 0.5 -> 0.7
        await pilot.press("down", "left", "left", "left")  # bob's 0.5 -> 0.2
        await pilot.press("space")  # vote for the player of this row (bob)
        await pilot.press("down", "end", "right", "up", "down")  # cy's 1.0, stays in bounds
        assert "0.2 suspect ◀ vote" in screen_text(app)
        await pilot.press("down", *"hid the body", "enter")  # the thought line; Enter sends
        await pilot.pause()
        assert app.sent == [{"vote": "2", "trust_1": 0.7, "trust_2": 0.2, "trust_3": 1.0,
                             "thought": "hid the body"}]
        await pilot.press("delete", "enter")  # sent: read-only now
        assert len(app.sent) == 1 and "Ballot sent" in screen_text(app)


def _dead_view() -> dict[str, Any]:
    players = [{"seat": s, "name": f"Player_{s}", "status": "dead" if s == 0 else "alive"}
               for s in range(3)]
    return {"public": {"step": 40, "max_steps": 2500, "phase": "tasks", "players": players,
                       "tasks_done": 2, "tasks_total": 6, "meetings": 1, "meeting": None,
                       "last_vote": None, "map": {"observation": "limited", "oracle": "high"}},
            "private": {"name": "Player_0", "seat": 0, "role": "crewmate", "status": "dead",
                        "trust": {}, "tasks": []}}


async def test_a_dead_player_is_told_they_are_out_and_keeps_watching():
    game = SocialGridGame()
    app = Host(game)
    async with app.run_test(size=(80, 24)) as pilot:
        session = Session(name="me", url="ws://test", seat=0, view=_dead_view())
        game.show(session)
        await pilot.pause()
        text = screen_text(app)
        assert "You were killed: you are out of the game" in text
        assert "Keep watching" in text and "Step 40/2500" in text
        assert not game.query_one(GridMap).display
        game.focus()
        await pilot.press("w", "e", "h")
        assert app.sent == []


def _engine_session(preset: str, **overrides: Any) -> Session:
    """Seat 0's session at the start of a one-player game of the real engine."""
    from engine.registry import get

    env = get("socialgrid")
    # seed 38: the oracle first turns right, towards common_task_1 a few steps away
    game = env.new_game(env.config(preset, overrides), 38, 1)
    return Session(name="me", url="ws://test", seat=0, view=game.view(0),
                   turn={"turn": 1, "legal": game.legal(0).to_json()})


async def test_the_hint_key_shows_what_the_tables_oracle_gives():
    game = SocialGridGame()
    app = Host(game)
    async with app.run_test(size=(100, 30)) as pilot:
        for level, expected in (("low", "there is no oracle at this table (level low)"),
                                ("high", "best → TURN_RIGHT towards common_task_1"),
                                ("mid", "If you: w/↑ MOVE_FORWARD → ")):
            game.show(_engine_session("navigation-oracle", oracle=level))
            game.focus()
            await pilot.press("h")
            assert expected in screen_text(app), level
            await pilot.press("h")  # off again
            assert "Oracle" not in screen_text(app)
        await pilot.press("right")
        assert app.sent == [{"choice": "5"}]


# -- with a real server ------------------------------------------------------------------------
KEY_NAMES = {"←": "left", "→": "right", "↑": "up", "↓": "down", ".": "full_stop"}


def _spy(app: ParlorApp) -> list[dict[str, Any]]:
    """Every `act` the app sends, as sent."""
    sent: list[dict[str, Any]] = []
    send = app.client.send

    def spying(type: str, **body: Any) -> Any:
        if type == "act":
            sent.append(body["action"])
        return send(type, **body)

    app.client.send = spying  # type: ignore[method-assign]
    return sent


def _public(app: ParlorApp) -> dict[str, Any]:
    return app.session.view["public"]


def _mine(app: ParlorApp) -> dict[str, Any]:
    return app.session.view["private"]


async def _play(pilot, app: ParlorApp, key: str) -> None:
    """Press an action's key and wait for the step it starts to be resolved and our next
    decision's keys to work."""
    step = _public(app)["step"]
    await pilot.press(key)
    await wait_for(pilot, lambda: _public(app)["step"] > step or _public(app)["phase"] == "vote",
                   f"the step after {key}")
    await our_turn(pilot, app)


async def _open(pilot, app: ParlorApp, **create: Any) -> None:
    await on_screen(pilot, app, "lobby")
    app.client.send("create_table", env="socialgrid", join_seat=0, **create)
    await our_turn(pilot, app)


async def test_a_person_walks_to_a_task_by_the_oracles_hint_and_does_it(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, app, preset="navigation-oracle", seats=["human"], seed=38)
        sent = _spy(app)
        await wait_for_text(pilot, "T1 common_task_1")
        await wait_for_footer(pilot, app, "h Oracle hint")
        keys = await wait_for_footer(pilot, app, "^q Quit")  # whole at 80 columns, once laid out
        assert keys.rstrip().endswith("^q Quit") and "h Oracle hint" in keys
        text = screen_text(app)
        assert "crewmate" in text and "Step 0/2500" in text
        # The moves in the footer at 80 columns too, on a second line (issue 22: dropped).
        assert "MOVE_FORWARD" in text and "Move" in keys and "Turn" in keys and ". NOOP" in keys
        # Keys for actions the rules do not allow now: a notice, nothing sent.
        assert 13 not in _mine(app)["allowed"] and 8 not in _mine(app)["allowed"]
        await pilot.press("k")
        assert "KILL (k) is not allowed now" in await wait_for_text(pilot, "nothing sent")
        await pilot.press("e")
        await wait_for_text(pilot, "DO_TASK (e) is not allowed now")
        await pilot.pause(0.1)
        assert sent == [] and _public(app)["step"] == 0
        # The oracle's hint (h), followed key by key as a person reads it off the screen.
        await pilot.press("h")
        text = await wait_for_text(pilot, "Oracle (high): best", "Players",
                                   "█")  # 80x24 holds the map, panel and hint
        names = []
        while not _mine(app)["tasks"][0]["completed"]:
            hint = re.search(r"best (\S+) ([A-Z_]+)", screen_text(app))
            assert hint, screen_text(app)
            shown, name = hint.groups()
            assert ACTIONS[BY_NAME[name]].shown == shown
            names.append(name)
            key = shown.split("/")[0]
            await _play(pilot, app, KEY_NAMES.get(key, key))
            assert len(names) < 40, names
        assert names[-3:] == ["DO_TASK"] * 3 and "MOVE_FORWARD" in names
        assert sent == [{"choice": str(BY_NAME[n])} for n in names]  # what a bot would send
        text = await wait_for_text(pilot, "✓1 common_task_1")
        assert "■■■ 3/3" in text and "Crew tasks ■" in text and " 1/3" in text
        assert "best" in text and "short_task_2" in text  # on to the next task


async def test_a_person_votes_at_a_meeting_with_the_ballot(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 36)) as pilot:
        await _open(pilot, app, preset="navigation-oracle", seats=["human", "random"], seed=3,
                    config={"vote_interval": 2})
        text = await wait_for_footer(pilot, app, ". NOOP")  # a wide footer: the keys allowed now
        assert text.rstrip().endswith("^q Quit")
        assert "Move" in text and "Turn" in text and ". NOOP" in text and "KILL" not in text
        for _ in range(2):
            await _play(pilot, app, "full_stop")  # NOOP, twice: the scheduled meeting
        text = await wait_for_text(pilot, "Meeting 1: a scheduled meeting (step 2)")
        assert "‹ Skip ›" in text and "1 random" in text and "0.5 unsure" in text
        assert not app.screen.query_one(GridMap).display
        assert isinstance(app.focused, BallotForm)
        await pilot.press("down", "left", "left", "left", "space", "down", *"stood still", "enter")
        await wait_for(pilot, lambda: _public(app).get("last_vote"), "the vote's result")
        text = await wait_for_text(pilot, "Last vote Meeting 1:")
        assert "tester→random" in text
        vote = _public(app)["last_vote"]
        assert vote["votes"]["0"] == 1
        assert _mine(app)["trust"] == {"1": 0.2}
        await our_turn(pilot, app)  # the next step
        assert _public(app)["phase"] == "tasks" and app.screen.query_one(GridMap).display
        assert isinstance(app.focused, SocialGridGame)  # the step keys work again
        await _play(pilot, app, "full_stop")


async def test_a_spectator_sees_the_public_state_and_no_positions(embedded):
    alice = await Client.connect(embedded.url, "alice")
    reply = await alice.request("create_table", env="socialgrid", preset="navigation-oracle",
                                seats=["human", "random"], seed=3, join_seat=0)
    table_id = reply["table"]["id"]
    turn = await alice.wait_for("your_turn", table_id=table_id)
    app = ParlorApp(embedded.url, "carol", server_key="watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await watch(app, pilot, table_id)
        text = await wait_for_text(pilot, "Positions are private", "You are watching",
                                   "Step 0/2500", "alice alive", "random alive", "Crew tasks")
        assert not re.search(r"R\d\d\(", text) and "facing" not in text
        assert "█" not in text and "Oracle" not in text
        assert not app.screen.query_one(GridMap).display
        await alice.send("act", table_id=table_id, turn=turn["turn"], action={"choice": "7"})
        await wait_for_text(pilot, "Step 1/2500")
        assert not re.search(r"R\d\d\(", screen_text(app))
    await alice.close()


def test_an_ejected_impostor_reads_with_the_right_article():
    from tui.widgets.socialgrid.text import vote_text
    shown = vote_text({"meeting": 1, "ejected": 1, "role": "impostor", "votes": {}},
                      lambda s: f"p{s}").plain
    assert "p1 ejected — an impostor" in shown
