"""AmongAgents' metrics from records: the termination type (Table 1), actions by verb, kills,
ejections, votes for an impostor, and the aggregate's shares."""

from engine.registry import get
from tests.amongagents.helpers import act, finish_round, new, sit_meeting

ENV = get("amongagents")


def test_a_game_won_by_ejecting_the_impostor():
    game = new((0,))
    act(game, "kill:1", seat=0)
    act(game, "report", seat=2)
    sit_meeting(game, {0: "vote:2", 2: "vote:0", 3: "vote:0", 4: "vote:0"})
    assert game.over
    m = ENV.game_metrics(game.record())
    g = m["game"]
    assert g["ended_impostors_eliminated"] == 1 and g["ended_time_limit"] == 0
    assert (g["kills"], g["meetings"], g["ejections"], g["impostors_ejected"]) == (1, 1, 1, 1)
    assert g["crew_won"] == 1 and g["timesteps"] == 2
    seats = m["seats"]
    assert seats["0"]["kill_actions"] == 1 and seats["0"]["ejected"] == 1
    assert seats["1"]["killed"] == 1 and seats["1"]["survived"] == 0
    assert seats["2"]["report_actions"] == 1 and seats["2"]["speak_actions"] == 3
    assert seats["3"]["votes_for_impostor"] == 1 and seats["0"]["votes_for_impostor"] == 0
    assert seats["4"]["win"] == 1 and seats["0"]["loss"] == 1


def test_the_aggregate_gives_table_one_shares():
    timed = new((0,), max_timesteps=1)
    finish_round(timed)
    ejected = new((0,))
    act(ejected, "button", seat=0)
    sit_meeting(ejected, {0: "vote:1", 1: "vote:0", 2: "vote:0", 3: "vote:0", 4: "vote:0"})
    agg = ENV.aggregate_metrics(ENV.game_metrics(g.record()) for g in (timed, ejected))
    overall = agg["overall"]
    assert overall["share_time_limit"] == 0.5 and overall["share_impostors_eliminated"] == 0.5
    assert overall["share_tasks_done"] == 0 and overall["impostor_win_rate"] == 0.5
    assert agg["roles"]["Impostor"]["seats"] == 2 and agg["roles"]["Impostor"]["win_rate"] == 0.5
