"""SocialGrid's replay panel under Pilot at 80x24 and 120x40, fed a stored game's frames through
the `replay` message as the wire contract shapes it: the omniscient map with every agent and its
facing, a vote's tally and each voter's reason, the trust plot — and before the first vote has
ended, no tally and no trust; a seat's perspective without the map and with only its own
reasons; a narrow panel collapsed to a summary."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from server.replays.replay import Replay
from tests.server.replays.sg_game import frame_json, replay_message, stored_game
from tests.tui.helpers import screen_text
from tui.app import ParlorApp
from tui.widgets.registry import replay_panel_for
from tui.widgets.socialgrid.grid_map import ARROWS, TILES, GridMap
from tui.widgets.socialgrid.replay_panel import SocialGridReplayPanel
from tui.widgets.socialgrid.trust_plot import TrustPlot
from tui.widgets.socialgrid.vote_sessions import VoteSessions

WALL = TILES["#"][0]


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> Replay:
    return stored_game(tmp_path_factory.mktemp("sgpanel") / "games.db")


class Host(App):
    CSS_PATH = ParlorApp.CSS_PATH

    def compose(self) -> ComposeResult:
        yield SocialGridReplayPanel()


async def _shown(app: Host, pilot, message, frames, at: int, seat: int | None) -> str:
    app.query_one(SocialGridReplayPanel).show(message, frame_json(frames[at], at, seat))
    await pilot.pause()
    return screen_text(app)


def _opened(replay: Replay, seat: int | None):
    """The perspective's frames, its `replay` message and its last vote session."""
    frames = replay.seen(seat)
    message = replay_message(replay, seat, frames)
    return frames, message, message["extras"]["sessions"][-1]


def _text(app: Host, widget: type) -> str:
    return str(app.query_one(widget).render())


def test_the_registry_names_the_panel():
    assert replay_panel_for("socialgrid") is SocialGridReplayPanel


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_omniscient_panel_shows_agents_tallies_reasons_and_trust(replay, size):
    frames, message, last = _opened(replay, None)
    first = message["extras"]["sessions"][0]
    app = Host()
    async with app.run_test(size=size) as pilot:
        before = await _shown(app, pilot, message, frames, first["at"] - 1, None)
        assert "Tally" not in before and "voting…" in before  # the meeting is on, not its end
        assert app.query_one(TrustPlot)._nothing
        poses = {int(s): v["private"]["pose"]
                 for s, v in frames[first["at"] - 1].view["seats"].items()
                 if v["private"].get("pose")}
        map_text = str(app.query_one(GridMap).render())
        assert WALL in before
        for seat, pose in poses.items():  # every agent in the game, with its facing
            assert f"{seat}{ARROWS[pose[2]]}" in map_text
        assert len(poses) == replay.data["players"]

        screen = await _shown(app, pilot, message, frames, last["at"], None)
        votes = _text(app, VoteSessions)
        assert "Tally" in votes and "ejected" in votes
        for ballot in last["ballots"]:
            assert ballot["reason"][:30] in votes.replace("\n", " ")
        assert not app.query_one(TrustPlot)._nothing
        assert "trust (0 impostor .. 1 crewmate)" in screen
        assert f"Step {frames[last['at']].clock['step']}" in screen.splitlines()[0]

        extras = message["extras"]
        (when, (x, y)), = extras["doors"]  # one door toggled, opened: doors start closed
        for at, tile in ((when - 1, "D"), (when, "O")):
            await _shown(app, pilot, message, frames, at, None)
            assert app.query_one(GridMap).state.rows[y][x] == tile
        body = extras["bodies"][0]  # found at once; as if it had lain there since
        lying = {**message, "extras": {**extras, "bodies": [{**body, "until": None}]}}
        await _shown(app, pilot, lying, frames, last["at"], None)
        assert tuple(body["pos"]) in app.query_one(GridMap).state.corpses
        assert TILES["C"][0] in str(app.query_one(GridMap).render())


async def test_a_seat_panel_has_no_map_and_only_its_own_reasons(replay):
    seat = 2
    frames, message, last = _opened(replay, seat)
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _shown(app, pilot, message, frames, last["at"], seat)
        assert WALL not in screen  # the screen shows the seat's own game widget instead
        votes = _text(app, VoteSessions)
        own = next(b for b in last["ballots"] if b["voter"] == seat)
        assert own["reason"] in votes.replace("\n", " ")
        others = sum(b["voter"] != seat for s in message["extras"]["sessions"]
                     for b in s["ballots"])
        assert votes.count("(reason not seen)") == others > 0
        assert not app.query_one(TrustPlot)._nothing


async def test_a_narrow_panel_collapses_to_a_summary(replay):
    frames, message, last = _opened(replay, None)
    app = Host()
    async with app.run_test(size=(50, 12)) as pilot:
        screen = await _shown(app, pilot, message, frames, last["at"], None)
        assert app.query_one(SocialGridReplayPanel).has_class("-compact")
        assert f"Meeting {last['meeting']}:" in screen and "Tally" in screen
        assert WALL not in screen
        early = await _shown(app, pilot, message, frames, 1, None)
        assert "No meeting yet." in early and "Tally" not in early
