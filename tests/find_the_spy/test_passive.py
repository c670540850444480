"""Find the Spy's passive mode (the paper's task): one solver, the recording's Player 1, reads
every recorded description and names the spy."""

import json
from collections import Counter

import pytest

from bots.registry import make_bot
from engine.core import ConfigError
from engine.find_the_spy.config import FindTheSpyConfig
from engine.find_the_spy.env import FindTheSpyEnv
from engine.find_the_spy.passive import recording
from tests.fakes.seating import play

ENV = FindTheSpyEnv()
RECORDED = {"id": "demo", "words": ["pond", "puddle", "pond", "pond"],
            "descriptions": [{"round": 1, "player": p, "text": t} for p, t in
                             [(1, "Frogs live in it."), (2, "Gone by the afternoon."),
                              (3, "Lily pads float on it."), (4, "A garden feature.")]]}


def passive(recorded=None, seed=1):
    config = FindTheSpyConfig(mode="passive",
                              recorded=json.dumps(recorded) if recorded else "")
    return ENV.new_game(config, seed, 1)


def test_a_recorded_game_is_shown_whole_and_player_1_names_the_spy():
    game = passive(RECORDED)
    view = game.view(0)
    assert game.pending() == frozenset((0,)) and view["public"]["phase"] == "vote"
    assert view["private"]["word"] == "pond"
    assert [d["text"] for d in view["public"]["descriptions"]][1] == "Gone by the afternoon."
    assert '"puddle"' not in json.dumps(view) and "puddle" not in ENV.render(view)
    assert [o.id for o in game.legal(0).options] == ["1", "2", "3", "4"]
    game.act(0, "Final Answer: Player 2")
    assert game.result.rewards == {0: 1.0}
    setup = game.view(0)["public"]["setup"]
    assert setup["spy_player"] == 2 and setup["recording_id"] == "demo"
    metrics = ENV.game_metrics(game.record())
    assert metrics["seats"]["0"]["right"] == 1 and metrics["seats"]["0"]["is_spy"] == 0


def test_player_1_may_be_the_spy_and_then_names_itself():
    game = passive({**RECORDED, "words": ["puddle", "pond", "pond", "pond"]})
    assert game.roles[0].name == "Spy"
    game.act(0, "Final Answer: Player 1")
    assert game.result.rewards == {0: 1.0}


@pytest.mark.parametrize("bad", [
    {"words": ["a", "b", "c", "d"], "descriptions": [{"round": 1, "player": 1, "text": "x"}]},
    {"words": ["pond"] * 4, "descriptions": [{"round": 1, "player": 1, "text": "x"}]},
    {**RECORDED, "descriptions": []},
    {**RECORDED, "descriptions": [{"round": 1, "player": 9, "text": "x"}]},
])
def test_a_bad_recording_is_refused_naming_the_problem(bad):
    with pytest.raises(ConfigError, match="recorded"):
        FindTheSpyConfig(mode="passive", recorded=json.dumps(bad))
    with pytest.raises(ConfigError, match="recorded"):
        FindTheSpyConfig(mode="passive", recorded="{not json")


def test_the_passive_mode_has_one_seat_and_the_interactive_four():
    with pytest.raises(ConfigError):
        ENV.new_game(FindTheSpyConfig(mode="passive"), 1, 4)
    with pytest.raises(ConfigError):
        ENV.new_game(FindTheSpyConfig(), 1, 1)
    assert ENV.player_counts(ENV.config("passive")) == (1,)


def test_games_dealt_from_the_seed_make_player_1_the_spy_a_quarter_of_the_time():
    spies = Counter(passive(seed=s).spy for s in range(800))
    assert 150 <= spies[0] <= 250, spies
    game = passive(seed=5)
    assert len(game.view(0)["public"]["descriptions"]) == 12  # 3 rounds x 4 players


async def test_an_interactive_record_replays_as_a_passive_game():
    game = ENV.new_game(FindTheSpyConfig(), 21, 4)
    await play(game, [make_bot("scripted:describer", "find-the-spy") for _ in range(4)])
    recorded = recording(game.record())
    again = passive(recorded)
    assert again.words == game.words and again.spy == game.spy
    assert [d["text"] for d in again.view(0)["public"]["descriptions"]] == \
        [d["text"] for d in game.view(0)["public"]["descriptions"]]
    await play(again, [make_bot("scripted:describer", "find-the-spy")])
    assert again.over and again.result.rewards[0] == game.result.rewards[0]
