"""AmongAgents' rules against the spec: the deal, turn order, tasks and completion, the kill
cooldown, meetings (button shared with reports, discussion, sequential vote, ties), the win
checks in order, the time limit, presets and options, default moves."""

import pytest

from engine.amongagents.config import AmongConfig, deal_tasks
from engine.amongagents.ship import CORRIDOR_MAP, shortest_path
from engine.core import ConfigError
from engine.registry import get
from tests.amongagents.helpers import act, finish_round, ids, new, sit_meeting, turn, wait

ENV = get("amongagents")


def test_presets_follow_the_paper_and_the_released_code():
    paper, seven, code = (ENV.config(p) for p in ("paper", "seven", "released-code"))
    assert (paper.players, paper.impostors, paper.common_tasks, paper.short_tasks,
            paper.long_tasks, paper.discussion_rounds, paper.max_buttons, paper.kill_cooldown,
            paper.max_timesteps) == (5, 1, 1, 1, 1, 3, 2, 3, 50)
    assert (seven.players, seven.impostors) == (7, 2)
    assert (code.long_tasks, code.vents) == (0, "released-code")
    assert not paper.allow_skip and not paper.reveal_role_on_ejection


def test_roles_are_dealt_from_the_seed():
    roles = [ENV.assign_roles(ENV.config(), seed, 5) for seed in range(40)]
    assert all(sum(r.name == "Impostor" for r in dealt) == 1 for dealt in roles)
    assert len({dealt.index(next(r for r in dealt if r.side == "impostor"))
                for dealt in roles}) == 5  # every seat gets to be the impostor
    assert ENV.assign_roles(ENV.config(), 7, 5) == ENV.assign_roles(ENV.config(), 7, 5)


def test_task_assignment():
    game = new((2,))
    common = game.tasks[0][0][0]
    assert common.type == "common"
    for seat in range(5):
        kinds = [k for k, _ in game.tasks[seat]]
        if seat == 2:
            assert kinds == [common]  # the impostor's copy, to fake
        else:
            assert [k.type for k in kinds] == ["common", "short", "long"] and kinds[0] == common
    own = [k for s in (0, 1, 3, 4) for k, _ in game.tasks[s][1:]]
    assert len(own) == len(set(own))  # distinct instances across crewmates
    # A crewmate's tasks do not depend on who the impostor is.
    assert [k for k, _ in new((4,)).tasks[0]] == [k for k, _ in game.tasks[0]]


def test_everyone_starts_in_the_cafeteria_and_acts_in_seat_order():
    game = new()
    assert set(game.location) == {"Cafeteria"}
    order = [wait(game) for _ in range(5)]
    assert order == [0, 1, 2, 3, 4] and game.timestep == 1


def test_crewmates_move_by_corridor_and_impostors_also_vent():
    game = new((0,))
    assert {i for i in ids(game) if i.startswith("vent:")} == {"vent:Admin"}
    assert "kill:1" in ids(game)
    wait(game)
    assert not any(i.startswith(("vent:", "kill:", "fake:")) for i in ids(game))
    assert {i for i in ids(game) if i.startswith("move:")} == {
        "move:Weapons", "move:Admin", "move:Upper Engine", "move:Medbay"}


def _walk(game, seat, room):
    """Seat `seat` (pending) walks one corridor step towards `room` (or waits when there)."""
    path = shortest_path(CORRIDOR_MAP, game.location[seat], room)
    if len(path) > 1:
        act(game, f"move:{path[1]}", seat=seat)
    else:
        wait(game, seat)


def test_long_task_progress_survives_leaving_the_room_and_completion_counts_living_crew():
    game = new((0,))
    long_task = game.tasks[1][2][0]
    room = long_task.room
    while game.location[1] != room:
        wait(game, 0)
        _walk(game, 1, room)
        finish_round(game)
    wait(game, 0)
    act(game, "task:2", seat=1)
    assert game.tasks[1][2][1] == 1
    finish_round(game)
    wait(game, 0)
    act(game, f"move:{CORRIDOR_MAP[room][0]}", seat=1)
    finish_round(game)
    wait(game, 0)
    _walk(game, 1, room)
    finish_round(game)
    wait(game, 0)
    assert "task:2" in ids(game)  # still one turn to go
    act(game, "task:2", seat=1)
    assert game.tasks[1][2][1] == 0 and "task:2" not in [o.id for o in game.offers]
    # Completion is counted over the living crewmates' tasks: 1 of 12.
    assert game.completion() == pytest.approx(1 / 12)
    game.alive[2] = False
    assert game.completion() == pytest.approx(1 / 9)


def test_kill_is_offered_again_at_the_fourth_own_step_after_a_kill():
    game = new((0,))
    act(game, "kill:1", seat=0)
    assert game.alive[1] is False and game.bodies == {1: "Cafeteria"}
    finish_round(game)  # 2, 3, 4 stay (they do not report)
    offered = []
    for _ in range(4):
        assert turn(game) == 0
        offered.append("kill:2" in ids(game))
        wait(game, 0)
        finish_round(game)
    assert offered == [False, False, False, True]


def test_meeting_steps_count_towards_the_cooldown():
    game = new((0,))
    act(game, "kill:1", seat=0)
    wait(game, 2)
    act(game, "report", seat=3)  # the round stops: seat 4 does not act
    assert game.phase == "meeting" and game.timestep == 1
    sit_meeting(game, {0: "vote:4", 2: "vote:3", 3: "vote:2", 4: "vote:0"})
    assert game.phase == "task" and game.timestep == 2
    assert turn(game) == 0 and game.location[0] == "Cafeteria"
    assert "kill:2" in ids(game)  # 3 speeches and a vote were steps 1-4


def test_a_meeting_call_stops_the_round_and_teleports_everyone():
    game = new((0,))
    act(game, "move:Admin", seat=0)
    act(game, "move:Weapons", seat=1)
    act(game, "button", seat=2)
    assert game.phase == "meeting" and game.timestep == 1 and game.round == 1
    assert set(game.location) == {"Cafeteria"}
    speakers = [wait(game) for _ in range(15)]
    assert speakers == [0, 1, 2, 3, 4] * 3
    assert ids(game) == ["vote:1", "vote:2", "vote:3", "vote:4"]  # no self vote, no skip
    assert game.public_view()["voting"]


def test_plurality_ejects_and_a_tie_ejects_nobody():
    game = new((0,))
    act(game, "button", seat=0)
    sit_meeting(game, {0: "vote:1", 1: "vote:0", 2: "vote:0", 3: "vote:1", 4: "vote:2"})
    result = game.meetings[-1]
    assert result["ejected"] is None and result["tied"] == [0, 1]
    assert all(game.alive)
    act(game, "button", seat=0)
    votes = [v["target"] for v in game.public_view()["votes"]]
    assert votes == []
    sit_meeting(game, {0: "vote:1", 1: "vote:0", 2: "vote:0", 3: "vote:0", 4: "vote:2"})
    # The impostor is ejected: the crew wins at once (impostors eliminated).
    assert game.over and game.ending == "impostors_eliminated"
    assert game.result.winners == (1, 2, 3, 4)


def test_votes_are_public_and_sequential():
    game = new((0,))
    act(game, "button", seat=0)
    while game.round <= 3:
        wait(game)
    act(game, "vote:3", seat=0)
    assert game.public_view()["votes"] == [{"seat": 0, "target": 3, "skip": False}]
    assert all(game.view(s)["public"]["votes"] for s in range(5))


def test_the_button_is_limited_and_reports_use_it_up():
    game = new((0,), max_buttons=2)
    act(game, "kill:1", seat=0)
    act(game, "report", seat=2)
    sit_meeting(game, {0: "vote:2", 2: "vote:3", 3: "vote:4", 4: "vote:0"})
    assert game.buttons == 1
    wait(game, 0)
    act(game, "button", seat=2)
    sit_meeting(game, {0: "vote:2", 2: "vote:3", 3: "vote:4", 4: "vote:0"})
    assert game.buttons == 2
    assert "button" not in ids(game)  # no more buttons, and no body to report


def test_win_checks_come_in_the_spec_order():
    # Two impostors of five: one kill makes them as many as the crew, checked after the round.
    game = new((0, 1), impostors=2)
    act(game, "kill:2", seat=0)
    assert not game.over  # checked only at the end of the timestep
    finish_round(game)
    assert game.over and game.ending == "crew_eliminated"
    assert game.result.winners == (0, 1)


def test_time_limit_ends_the_game_for_the_impostors():
    game = new((0,), max_timesteps=3)
    for _ in range(3):
        finish_round(game)
    assert game.over and game.ending == "time_limit" and game.timestep == 3
    assert game.result.reason.startswith("the impostors win")
    assert game.public_view()["setup"]["roles"][0]["name"] == "Impostor"


def test_all_tasks_done_wins_for_the_crew():
    game = new((0,), common_tasks=1, short_tasks=0, long_tasks=0)
    common = game.tasks[1][0][0]
    while not game.over:
        seat = turn(game)
        if seat != 0 and game.location[seat] == common.room and "task:0" in ids(game):
            act(game, "task:0", seat=seat)
        elif seat == 0:
            wait(game, 0)
        else:
            _walk(game, seat, common.room)
    assert game.ending == "tasks_done" and game.result.winners == (1, 2, 3, 4)


def test_skip_and_role_reveal_options():
    game = new((0,), allow_skip=True, reveal_role_on_ejection=True)
    act(game, "button", seat=0)
    while game.round <= 3:
        wait(game)
    assert ids(game)[-1] == "skip"
    sit_meeting(game, {0: "skip", 1: "skip", 2: "vote:3", 3: "skip", 4: "vote:3"})
    assert game.meetings[-1]["ejected"] is None  # skip had the most votes
    act(game, "button", seat=0)
    sit_meeting(game, {0: "vote:3", 1: "vote:3", 2: "skip", 3: "vote:0", 4: "vote:3"})
    assert game.meetings[-1]["ejected"] == 3 and game.meetings[-1]["role"] == "Crewmate"
    assert game.public_view()["players"][3]["role"] == "Crewmate"


def test_default_moves_are_harmless():
    game = new((0,))
    assert game.default_action(0) == {"choice": "move:Weapons"}  # never a kill or a vent
    game.act_default(0, "timeout")
    assert all(game.alive) and game.location[0] == "Weapons"
    act(game, "button", seat=1)
    while game.round <= 3:
        assert game.default_action(turn(game)) == {"text": "..."}
        game.act_default(turn(game), "timeout")
    assert game.default_action(turn(game)) == {"abstain": True}
    for _ in range(5):
        game.act_default(turn(game), "timeout")
    assert game.meetings[-1]["ejected"] is None and all(game.alive)
    assert all(v["target"] is None for v in game.meetings[-1]["votes"])


def test_an_unreadable_answer_becomes_the_harmless_default():
    """The one retry of spec §17 is the asker's (an LLM bot re-asks with the reason): what
    reaches the rules unread is played as the default at once."""
    game = new((0,))
    events = game.act(0, "I think I will KILL someone clever")
    assert [e.data.get("then") for e in events if e.type == "invalid_move"] == ["default"]
    assert all(game.alive) and game.location[0] == "Weapons"  # the default move
    assert game.actions[-1].outcome == "invalid"


def test_text_answers_are_read_like_the_released_code():
    game = new((0,))
    game.act(0, "[Condensed Memory]\nnothing\n[Thinking Process]\nkill\n[Action] KILL Player 2: "
                f"{game.colours[1]}")
    assert not game.alive[1]
    game.act(1 + 1, "[Action] SPEAK: I saw nothing")
    assert game.mine[2][-1]["text"] == "I saw nothing"
    game.act(3, "2")  # the second offer: MOVE from Cafeteria to Admin
    assert game.location[3] == "Admin"


def test_config_errors_name_the_problem():
    with pytest.raises(ConfigError, match="impostors"):
        AmongConfig(players=4, impostors=2)
    with pytest.raises(ConfigError, match="long_tasks"):
        AmongConfig(players=12, long_tasks=1)
    with pytest.raises(ConfigError, match="vents"):
        AmongConfig(vents="all")
    assert len(deal_tasks(AmongConfig(players=11), 3)) == 11


def test_an_ejection_at_the_time_limit_counts_before_the_limit():
    game = new((0,), max_timesteps=2)
    act(game, "button", seat=0)
    sit_meeting(game, {0: "vote:1", 1: "vote:0", 2: "vote:0", 3: "vote:0", 4: "vote:0"})
    assert game.timestep == 2 and game.ending == "impostors_eliminated"
    kept = new((0,), max_timesteps=2)
    act(kept, "button", seat=0)
    sit_meeting(kept, {0: "vote:1", 1: "vote:2", 2: "vote:3", 3: "vote:4", 4: "vote:1"})
    assert kept.ending == "time_limit"  # the same timestep, a crewmate ejected
