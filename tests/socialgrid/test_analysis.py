"""Planning, trust, detection, vote-reasoning and win-lean metrics (spec §12, §14, App. L) on
small hand-made records, with the expected numbers worked out in the comments."""

import json
import math
from dataclasses import replace

import pytest

from engine.socialgrid.analysis import (
    BRIER_HALF,
    BRIER_RANDOM,
    LABELS,
    StateRecord,
    StepRecord,
    TaskRecord,
    VoteRecord,
    aggregate,
    brier_score,
    detection_accuracy,
    detection_baseline,
    detection_signal,
    impostor_vote_class,
    leg_efficiency,
    over_trusts,
    p_crew,
    planning_efficiency,
    planning_performance,
    planning_success_rate,
    summary,
    task_performance,
    thought_class,
    trust_series,
    trust_volatility,
    vote_class_counts,
    vote_class_shares,
    win_lean,
)
from engine.socialgrid.board import RIGHT
from engine.socialgrid.moves import DO_TASK, MOVE_FORWARD, NOOP


def task(kind="common", required=3, **fields):
    return TaskRecord(f"{kind}_task_1", kind, required, **fields)


def ballot(voter, target, trust, meeting=0, step=200, thought=""):
    return VoteRecord(step, meeting, voter, target, trust, thought)


# ---- tasks ----

TASKS = [
    # Completed at step 9 (10 env steps), L_opt 5 -> PE 0.5.
    task("common", 3, reached_step=6, completed_step=9, l_opt=5.0, l_opt_leg=5.0),
    # Completed at step 39 (40 env steps), L_opt 30 -> PE 0.75; leg from step 9: 30 steps,
    # L_opt_leg 12 -> 0.4.
    task("short", 8, reached_step=31, completed_step=39, l_opt=30.0, leg_start_step=9,
         l_opt_leg=12.0),
    # Reached, never completed -> PE 0.
    task("long", 13, reached_step=60, l_opt=40.0, leg_start_step=39, l_opt_leg=20.0),
]


def test_task_performance_is_the_weighted_share_completed():
    assert task_performance(TASKS) == pytest.approx(2 / 3)
    weighted = [replace(t, weight=w) for t, w in zip(TASKS, (1.0, 2.0, 3.0), strict=True)]
    assert task_performance(weighted) == pytest.approx((1 + 2) / 6)
    assert task_performance([]) is None


def test_planning_success_counts_reached_tasks_completed_or_not():
    assert planning_success_rate(TASKS) == 1.0
    assert planning_success_rate([*TASKS[:2], task("long", 13)]) == pytest.approx(2 / 3)
    # Completed implies reached, even with no reach logged.
    assert planning_success_rate([task(completed_step=5)]) == 1.0
    assert planning_success_rate([]) is None


def test_planning_efficiency_counts_every_env_step_from_the_start():
    assert [planning_efficiency(t) for t in TASKS] == [0.5, 0.75, 0.0]
    # L_opt 5 done at step 4 (5 steps) is optimal -> 1; faster than the oracle is capped at 1.
    assert planning_efficiency(task(completed_step=4, l_opt=5.0)) == 1.0
    assert planning_efficiency(task(completed_step=2, l_opt=5.0)) == 1.0
    # PP = mean over completed tasks = (0.5 + 0.75) / 2; 0 when none completed.
    assert planning_performance(TASKS) == pytest.approx(0.625)
    assert planning_performance([TASKS[2]]) == 0.0
    assert planning_performance([]) is None


def test_leg_efficiency_starts_at_the_previous_completion():
    # First leg: steps 0..9 = 10 steps, 5 / 10. Second: steps 10..39 = 30 steps, 12 / 30.
    assert [leg_efficiency(t) for t in TASKS] == [0.5, pytest.approx(0.4), 0.0]
    assert planning_performance(TASKS, per_leg=True) == pytest.approx(0.45)


# ---- trust ----

# Voter 0 at two meetings; seat 2 is the impostor. Given out of order on purpose.
TRUST_VOTES = [
    ballot(0, 2, {1: 0.6, 2: 0.1, 0: 1.0}, meeting=1, step=400),
    ballot(0, 2, {1: 0.8, 2: 0.4}, meeting=0, step=200),
    ballot(1, None, {0: 0.5, 2: 0.5}, meeting=0, step=200),
]


def test_trust_series_is_in_meeting_order_without_self():
    assert trust_series(TRUST_VOTES, 0) == {1: [0.8, 0.6], 2: [0.4, 0.1]}


def test_brier_score_by_hand():
    # 0->1 (crew, y=0): (1-0.8)^2 = 0.04, (1-0.6)^2 = 0.16 -> 0.10.
    # 0->2 (impostor, y=1): ((1-0.4)-1)^2 = 0.16, ((1-0.1)-1)^2 = 0.01 -> 0.085.
    # Mean over the pairs: 0.0925.
    assert brier_score(TRUST_VOTES, 0, frozenset({2})) == pytest.approx(0.0925)
    assert brier_score(TRUST_VOTES, 5, frozenset({2})) is None


def test_trust_volatility_by_hand():
    # 0->1: |0.6 - 0.8| = 0.2; 0->2: |0.1 - 0.4| = 0.3 -> 0.25. Seat 1 rated once: None.
    assert trust_volatility(TRUST_VOTES, 0) == pytest.approx(0.25)
    assert trust_volatility(TRUST_VOTES, 1) is None


def test_pairs_rated_fewer_times_still_count():
    # A third meeting without seat 2 (gone): 0->1 has K=3, 0->2 keeps K=2.
    votes = [*TRUST_VOTES, ballot(0, 1, {1: 0.3}, meeting=2, step=600)]
    # 0->1: 0.04, 0.16, 0.49 -> 0.23; 0->2: 0.085 -> mean 0.1575.
    assert brier_score(votes, 0, frozenset({2})) == pytest.approx(0.1575)
    # 0->1: (0.2 + 0.3) / 2 = 0.25; 0->2: 0.3 -> 0.275.
    assert trust_volatility(votes, 0) == pytest.approx(0.275)


@pytest.mark.parametrize("impostor", [True, False])
def test_brier_baselines(impostor):
    impostors = frozenset({1} if impostor else ())
    # A constant 0.5: (0.5 - y)^2 = 0.25 whatever the role.
    flat = [ballot(0, None, {1: 0.5}, meeting=m) for m in range(4)]
    assert brier_score(flat, 0, impostors) == BRIER_HALF == 0.25
    # Uniform trust: the midpoints of n equal slices average (1 - T - y)^2 to
    # 1/3 - 1/(12 n^2) for either role (E[U^2] = 1/3).
    n = 200
    grid = [ballot(0, None, {1: (k + 0.5) / n}, meeting=k) for k in range(n)]
    assert brier_score(grid, 0, impostors) == pytest.approx(1 / 3 - 1 / (12 * n * n))
    assert BRIER_RANDOM == pytest.approx(1 / 3)


# ---- detection accuracy ----

def test_detection_accuracy_leaves_out_skips():
    impostors = frozenset({2, 3})
    votes = [ballot(0, 2, {}, 0), ballot(0, 1, {}, 1), ballot(0, None, {}, 2),
             ballot(0, 3, {}, 3), ballot(1, None, {}, 0)]
    assert detection_accuracy(votes, 0, impostors) == pytest.approx(2 / 3)  # 2 of 3 non-skips
    assert detection_accuracy(votes, 1, impostors) is None  # only skipped


def test_detection_baseline():
    assert detection_baseline(7, 2) == pytest.approx(1 / 3)  # the paper's 2/6
    assert detection_baseline(5, 2) == 0.5  # the live baseline after two crew are gone
    assert detection_baseline(5, 1) == 0.25
    assert detection_baseline(1, 0) is None


# ---- vote reasoning classes ----

@pytest.mark.parametrize(("thought", "expected"), [
    ("No evidence to distinguish, voting randomly.", "scarcity"),
    ("Voting arbitrarily.", "scarcity"),
    ("All have EQUAL\ntrust", "scarcity"),
    ("player2 moved Erratically, reducing trust.", "heuristic"),
    ("player3 stood stationary in a loop", "heuristic"),
    ("Player_2 was near the body", "heuristic"),
    ("I saw Player_6 kill player 1", "strong"),
    ("saw him erratic near the body", "strong"),  # strong evidence wins
    ("near the body, but no real evidence", "scarcity"),  # scarcity outranks weak cues
    ("player5 completed tasks consistently.", "other"),
    ("", "other"),
])
def test_thought_class(thought, expected):
    assert thought_class(thought) == expected


def test_over_trust_is_strictly_above_point_seven():
    impostors = frozenset({5, 6})
    assert over_trusts(ballot(0, 1, {5: 0.71, 1: 0.2}), impostors)
    assert not over_trusts(ballot(0, 1, {5: 0.7, 6: 0.3, 1: 0.9}), impostors)


def test_impostor_vote_class():
    impostors = frozenset({5, 6})
    assert impostor_vote_class(ballot(5, 1, {6: 0.9, 1: 0.1}), impostors) == "misdirection"
    assert impostor_vote_class(ballot(5, 1, {6: 0.7}), impostors) == "framed"
    assert impostor_vote_class(ballot(5, 1, {}), impostors) == "framed"  # teammate gone
    assert impostor_vote_class(ballot(5, 6, {6: 0.1}), impostors) == "teammate"
    assert impostor_vote_class(ballot(5, None, {6: 0.9}), impostors) is None


IMPOSTORS = frozenset({5, 6})
MEETING = [
    ballot(0, 5, {5: 0.8}, thought="No evidence, voting arbitrarily"),  # scarcity, over, hit
    ballot(1, 2, {5: 0.9, 6: 0.2}, thought="player2 erratic"),  # heuristic, over-trust, miss
    ballot(2, 6, {5: 0.5}, thought="I saw player 6 kill"),  # strong, hit
    ballot(3, None, {5: 0.9}, thought="no evidence"),  # skip: left out
    ballot(4, 1, {5: 0.3}, thought="player 1 did not do tasks"),  # other, miss
    ballot(5, 0, {6: 0.9}),  # impostor: misdirection
    ballot(6, 1, {5: 0.3}),  # impostor: framed
]


def test_vote_classes_shares_and_accuracy():
    counts = vote_class_counts(MEETING, IMPOSTORS)
    assert counts["crew_votes"] == 4 and counts["crew_correct"] == 2
    assert counts["over_trust_votes"] == 2 and counts["over_trust_correct"] == 1
    assert counts["imp_votes"] == 2
    shares = vote_class_shares(counts)
    assert shares["detection_accuracy"] == 0.5
    expected = {"scarcity": (0.25, 1.0), "heuristic": (0.25, 0.0), "strong": (0.25, 1.0),
                "other": (0.25, 0.0), "over_trust": (0.5, 0.5)}
    for name, (share, accuracy) in expected.items():
        assert (shares[f"{name}_share"], shares[f"{name}_accuracy"]) == (share, accuracy)
    assert (shares["misdirection_share"], shares["framed_share"],
            shares["teammate_share"]) == (0.5, 0.5, 0.0)


def test_vote_classes_without_votes():
    shares = vote_class_shares(vote_class_counts([], IMPOSTORS))
    assert all(value is None for value in shares.values())


# ---- win-lean ----

def test_p_crew_by_hand():
    # Even game: TC 0.5, 3 v 3, DET 0.5 -> S = 0 -> p = 0.5.
    assert p_crew(0.5, 3, 3, 0.5) == 0.5
    # Start of a 5 + 2 game: S = 1.0 (0 - 0.5) + 0.5 (3/7) + 0.3 (0) = -0.2857...
    assert p_crew(0.0, 5, 2, 0.5) == pytest.approx(0.5 * (1 + math.tanh(2 * (-0.5 + 1.5 / 7))))
    # Everything for the crew: S = 0.5 + 0.5 + 0.3 * 0.5 = 1.15 -> (1 + tanh 2.3) / 2 = 0.990.
    assert p_crew(1.0, 4, 0, 1.0) == pytest.approx(0.5 * (1 + math.tanh(2.3)))
    assert p_crew(0.0, 0, 0, 0.5) == pytest.approx(0.5 * (1 + math.tanh(-1.0)))


def test_detection_signal():
    votes = [ballot(0, 5, {5: 0.8, 6: 0.1}), ballot(1, None, {5: 0.6, 0: 0.9}),
             ballot(5, 0, {6: 1.0, 0: 0.0})]  # the impostor's own ratings never count
    # Crew ratings of impostors: 0.8, 0.1, 0.6 -> mean 0.5 -> DET 0.5.
    assert detection_signal(votes, IMPOSTORS) == pytest.approx(0.5)
    # Seat 6 gone: 0.8, 0.6 -> DET 0.3. Seat 0 gone too: 0.6 -> 0.4.
    assert detection_signal(votes, IMPOSTORS, frozenset({0, 1, 5})) == pytest.approx(0.3)
    assert detection_signal(votes, IMPOSTORS, frozenset({1, 5})) == pytest.approx(0.4)
    assert detection_signal([], IMPOSTORS) == 0.5


def test_win_lean_curve_and_terminal_fill():
    # 5 crew (3 tasks each) + seats 5, 6 impostors. A meeting at step 200: crew trust
    # impostors 0.2 on average -> DET 0.8.
    votes = [ballot(s, 5, {5: 0.2, 6: 0.2}, step=200) for s in range(5)]
    states = [StateRecord(0, 0, 15, 5, 2), StateRecord(199, 6, 15, 5, 2),
              StateRecord(200, 6, 15, 5, 2), StateRecord(201, 15, 15, 5, 1),
              StateRecord(202, 15, 15, 5, 1)]  # after the end: ignored
    curve = win_lean(states, votes, IMPOSTORS, end_step=201, crew_won=True, horizon=205)
    assert [s for s, _ in curve] == [0, 199, 200, 201, 202, 203, 204]
    p = dict(curve)
    assert p[0] == pytest.approx(p_crew(0.0, 5, 2, 0.5))
    # Step 199: TC 0.4, before any meeting -> DET 0.5: S = -0.1 + 0.5 * 3/7.
    assert p[199] == pytest.approx(0.5 * (1 + math.tanh(2 * (-0.1 + 1.5 / 7))))
    # Step 200: the meeting counts from its own step: S = -0.1 + 3/14 + 0.3 * 0.3.
    assert p[200] == pytest.approx(0.5 * (1 + math.tanh(2 * (-0.1 + 1.5 / 7 + 0.09))))
    assert p[201] == pytest.approx(p_crew(1.0, 5, 1, 0.8))
    assert [p[s] for s in (202, 203, 204)] == [1.0, 1.0, 1.0]
    lost = win_lean(states, votes, IMPOSTORS, end_step=201, crew_won=False, horizon=204)
    assert lost[-2:] == [(202, 0.0), (203, 0.0)]
    assert len(win_lean(states, votes, IMPOSTORS, end_step=201, crew_won=True)) == 4


# ---- summary and aggregate ----

def _game(crew_won=True):
    impostors = frozenset({2})
    walk = [StepRecord(i, NOOP, (1, 1, RIGHT), (1, 1, RIGHT)) for i in range(5)]
    walk += [StepRecord(5 + i, DO_TASK, (1, 1, RIGHT), (1, 1, RIGHT), progressed=True,
                        completed="common_task_1" if i == 2 else None) for i in range(3)]
    moving = [StepRecord(i, MOVE_FORWARD, (i, 1, RIGHT), (i + 1, 1, RIGHT)) for i in range(8)]
    tasks = {0: [task(completed_step=7, reached_step=4, l_opt=4.0, l_opt_leg=4.0),
                 task("short", 8)],
             1: [task(reached_step=3), task("short", 8)]}
    votes = [ballot(0, 2, {1: 1.0, 2: 0.0}, thought="I saw it"),
             ballot(1, None, {0: 0.5, 2: 0.5}, thought="no evidence"),
             ballot(2, 0, {0: 0.2, 1: 0.5})]
    states = [StateRecord(s, int(s >= 7), 4, 2, 1) for s in range(8)]
    return summary(players=3, impostors=impostors, steps={0: walk, 1: moving, 2: moving},
                   tasks=tasks, votes=votes, states=states, end_step=7, crew_won=crew_won)


def test_summary_numbers():
    game = _game()
    json.dumps(game)
    seat0, seat1, seat2 = (game["seats"][s] for s in "012")
    assert (seat0["tp"], seat0["psr"], seat0["pp"]) == (0.5, 0.5, 0.5)  # 4 / (7 + 1)
    assert seat0["brier"] == 0.0 and seat0["detection_accuracy"] == 1.0
    assert seat1["brier"] == 0.25 and seat1["detection_accuracy"] is None
    assert seat1["skips"] == 1 and seat1["votes"] == 0
    assert seat2["impostor"] == 1 and seat2["brier"] is None and seat2["tp"] is None
    # Seat 0: NOOP x5 = stall on 5 of 8 decisions; passive 5/8, nothing active.
    assert seat0["noop_stall"] == 5 and seat0["noop_stall_rate"] == 0.625
    assert (seat0["failure_passive"], seat0["failure_active"]) == (0.625, 0.0)
    assert seat0["failure_any"] == 0.625 and seat1["failure_any"] == 0.0
    g = game["game"]
    assert (g["tasks_done"], g["tasks_total"], g["task_completion"]) == (1, 4, 0.25)
    assert g["crew_tp"] == 0.25 and g["crew_brier"] == 0.125 and g["crew_volatility"] is None
    assert g["crew_votes"] == 1 and g["detection_accuracy"] == 1.0 and g["strong_share"] == 1.0
    assert g["framed_share"] == 1.0 and g["detection_baseline"] == 0.5
    assert g["win_lean_end"] == pytest.approx(p_crew(0.25, 2, 1, 0.5))


def test_every_key_has_a_label():
    game = _game()
    keys = set(game["game"]) | {k for seat in game["seats"].values() for k in seat}
    folded = aggregate([game, _game(crew_won=False)], players=3)
    keys |= set(folded["overall"])
    keys |= {k for block in (*folded["roles"].values(), *folded["seats"].values())
             for k in block}
    assert keys - set(LABELS) == set()


def test_aggregate_pools_votes_and_decisions_and_skips_void_games():
    void = _game()
    void["game"]["void"] = 1
    folded = aggregate([_game(), _game(crew_won=False), void], players=3)
    overall = folded["overall"]
    assert (overall["games"], overall["counted"], overall["void"]) == (3, 2, 1)
    assert overall["crew_win_rate"] == 0.5
    assert overall["crew_votes"] == 2 and overall["detection_accuracy"] == 1.0
    crew = folded["roles"]["crew"]
    # Two crew seats per game: 16 + 16 decisions, 10 of them stalled.
    assert crew["seat_games"] == 4 and crew["steps"] == 32
    assert crew["noop_stall_rate"] == pytest.approx(10 / 32)
    assert crew["tp"] == 0.25 and crew["brier"] == 0.125
    assert folded["roles"]["impostor"]["brier"] is None
    assert folded["seats"]["0"]["noop_stall_rate"] == 0.625
