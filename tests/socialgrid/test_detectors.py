"""Failure detectors (spec §13) on small hand-made trajectories: each pattern on a walk that must
trigger it, one just under the threshold, and ordinary play that must not."""

import pytest

from engine.socialgrid.analysis import StepRecord
from engine.socialgrid.board import RIGHT
from engine.socialgrid.detectors import (
    PATTERNS,
    door_spam,
    door_toggle,
    failure_rates,
    failure_totals,
    move_backtrack,
    move_oscillation,
    noop_stall,
    ping_pong,
    radar,
    strafe_backtrack,
    strafe_oscillation,
    task_fixation,
    turn_toggle,
)
from engine.socialgrid.detectors import detect_failures as detect
from engine.socialgrid.moves import (
    CLOSE_DOOR,
    DO_TASK,
    MOVE_BACKWARD,
    MOVE_FORWARD,
    MOVEMENT_ACTIONS,
    NOOP,
    OPEN_DOOR,
    STRAFE_LEFT,
    STRAFE_RIGHT,
    TURN_BACK,
    TURN_LEFT,
    TURN_RIGHT,
    Pose,
    target,
)

F, B, L, R = MOVE_FORWARD, MOVE_BACKWARD, STRAFE_LEFT, STRAFE_RIGHT
TL, TR, N = TURN_LEFT, TURN_RIGHT, NOOP
DOOR = (9, 5)


def walk(actions, start=(5, 5, RIGHT), first_step=0, doors=None, progress=()):
    """StepRecords for `actions` on open floor (nothing blocks); `doors[i]` is the door decision
    i acted on, `progress` the indices of DO_TASKs that advanced a task."""
    pose, records = Pose(*start), []
    for i, action in enumerate(actions):
        after = target(pose, action) if action in MOVEMENT_ACTIONS else pose
        records.append(StepRecord(first_step + i, action, tuple(pose), tuple(after),
                                  progressed=i in progress, door=(doors or {}).get(i)))
        pose = after
    return records


# ---- position ping-pong ----

def test_ping_pong_back_and_forth_between_two_tiles():
    # F B F B F B: tiles A B A B A B A; every arrival after the first is a return (5).
    assert ping_pong(walk([F, B] * 3)) == set(range(6))


def test_ping_pong_needs_four_returns():
    # F B F B: A B A B A, returns A B A = 3 -> not yet; F B F B F: 4 returns -> all 5 arrivals.
    assert ping_pong(walk([F, B, F, B])) == set()
    assert ping_pong(walk([F, B, F, B, F])) == set(range(5))


def test_ping_pong_ignores_a_straight_walk_and_standing_still():
    assert ping_pong(walk([F] * 30)) == set()
    assert ping_pong(walk([N] * 30 + [TL] * 8)) == set()


def test_ping_pong_flags_arrivals_not_the_turns_between():
    # Walk, turn round, walk back, ...: arrivals at 0, 2, 4, 6, 8 on 2 tiles, 4 of them returns.
    assert ping_pong(walk([F, TURN_BACK] * 4 + [F])) == {0, 2, 4, 6, 8}


def test_ping_pong_three_tiles_but_not_four():
    # F F B B: A B C B A, 2 returns -> not (walking two tiles and back once is no ping-pong).
    assert ping_pong(walk([F, F, B, B])) == set()
    # Twice: A B C B A B C B A, returns B A B C B A = 6 on 3 tiles -> flagged.
    assert ping_pong(walk([F, F, B, B] * 2)) == set(range(8))
    # F F F B B B F F F B B B: four tiles, and within any three tiles only 2 returns in a row.
    assert ping_pong(walk([F, F, F, B, B, B] * 2)) == set()


def test_ping_pong_window_is_twenty_decisions():
    # Arrivals at 0, 4, 8, 12, 16 on 2 tiles (4 returns) within decisions 0..19 -> flagged.
    assert ping_pong(walk([F, N, N, N, B, N, N, N] * 2 + [F])) == {0, 4, 8, 12, 16}
    # Arrivals at 0, 5, 10, 15, 20: any 20 decisions hold 4 arrivals, 3 returns -> not flagged.
    assert ping_pong(walk([F, *[N] * 4, B, *[N] * 4] * 2 + [F])) == set()


# ---- backtrack loops ----

def test_move_backtrack_three_loops_within_fifteen():
    # F F B B three times = 12 decisions, three forward-then-backward pairs.
    assert move_backtrack(walk([F, F, B, B] * 3)) == set(range(12))


def test_move_backtrack_two_loops_are_not_enough():
    assert move_backtrack(walk([F, F, B, B] * 2 + [F] * 5)) == set()
    assert move_backtrack(walk([F] * 20)) == set()


def test_move_backtrack_window_is_fifteen_decisions():
    # Pairs span decisions 0-3, 7-10, 11-14: 15 decisions -> flagged (not the NOOPs).
    loop = [F, F, B, B]
    assert move_backtrack(walk(loop + [N] * 3 + loop * 2)) == set(range(4)) | set(range(7, 15))
    # One more NOOP: 0-3 to 12-15 is 16 decisions -> not flagged.
    assert move_backtrack(walk(loop + [N] * 4 + loop * 2)) == set()


def test_single_step_dithering_is_oscillation_not_backtrack():
    assert move_backtrack(walk([F, B] * 5)) == set()
    assert move_oscillation(walk([F, B] * 5)) == set(range(10))


def test_strafe_backtrack_counts_left_then_right():
    assert strafe_backtrack(walk([L, L, R, R] * 3)) == set(range(12))
    # Starting to the right: RR LL RR LL RR LL RR; left-then-right pairs are 2-5, 6-9, 10-13.
    assert strafe_backtrack(walk([R, R, L, L] * 3 + [R, R])) == set(range(2, 14))
    assert strafe_backtrack(walk([R, R, L, L] * 3)) == set()  # only two left-then-right pairs
    assert strafe_backtrack(walk([F, F, B, B] * 3)) == set()


# ---- oscillation ----

def test_move_oscillation_needs_four_reversals():
    # F B F B F: reversals 0-1, 1-2, 2-3, 3-4 -> flagged. F B F B: three -> not.
    assert move_oscillation(walk([F, B, F, B, F])) == set(range(5))
    assert move_oscillation(walk([F, B, F, B])) == set()


def test_move_oscillation_only_counts_single_steps():
    assert move_oscillation(walk([F, F, B, B] * 3)) == set()
    assert move_oscillation(walk([F, B, B, F, F, B, B, F])) == set()


def test_move_oscillation_window_is_ten_decisions():
    # Reversals 0-1, 1-2, 2-3 and 8-9: decisions 0..9 -> flagged, NOOPs not.
    assert move_oscillation(walk([F, B, F, B, *[N] * 4, F, B])) == {0, 1, 2, 3, 8, 9}
    # One more NOOP: the fourth reversal is 9-10, 11 decisions from the first.
    assert move_oscillation(walk([F, B, F, B, *[N] * 5, F, B])) == set()


def test_strafe_oscillation():
    assert strafe_oscillation(walk([L, R, L, R, L])) == set(range(5))
    assert strafe_oscillation(walk([L, R, L, R])) == set()
    assert strafe_oscillation(walk([F, B, F, B, F])) == set()


# ---- turn toggle ----

def test_turn_toggle_four_turns_in_place():
    assert turn_toggle(walk([TL, TR, TL, TR])) == {0, 1, 2, 3}
    assert turn_toggle(walk([TL, TR, TL])) == set()


def test_turn_toggle_window_is_eight_decisions():
    # Turns at 0, 2, 4, 6 (7 decisions) -> flagged; at 0, 3, 6, 9 (10 decisions) -> not.
    assert turn_toggle(walk([TL, N, TR, N, TL, N, TR])) == {0, 2, 4, 6}
    assert turn_toggle(walk([TL, N, N, TR, N, N, TL, N, N, TR])) == set()


def test_turn_toggle_broken_by_moving():
    assert turn_toggle(walk([TL, TR, F, TL, TR])) == set()
    assert turn_toggle(walk([F, TL, F, TR] * 4)) == set()  # turning while walking a path


# ---- stalls ----

def test_noop_stall_five_in_a_row():
    assert noop_stall(walk([F, *[N] * 4, F])) == set()
    assert noop_stall(walk([F, *[N] * 5, F])) == {1, 2, 3, 4, 5}
    assert noop_stall(walk([*[N] * 4, DO_TASK, *[N] * 4])) == set()


def test_a_persons_waits_are_no_noop_stall():
    from dataclasses import replace

    steps = walk([F, *[N] * 8, F])
    waited = [replace(s, waiting=True) if 1 <= i <= 6 else s for i, s in enumerate(steps)]
    assert noop_stall(waited) == set()  # six waits, then two NOOPs: no run of five
    assert noop_stall(steps) == set(range(1, 9))  # the same NOOPs unmarked: a stall


def test_task_fixation_ten_futile_task_actions():
    assert task_fixation(walk([DO_TASK] * 9)) == set()
    assert task_fixation(walk([DO_TASK] * 10)) == set(range(10))


def test_task_fixation_broken_by_progress():
    # A long task needs 13 toggles: all of them progress, nothing is flagged.
    assert task_fixation(walk([DO_TASK] * 13, progress=set(range(13)))) == set()
    # 9 futile, 1 progressing, 9 futile: no run reaches 10.
    assert task_fixation(walk([DO_TASK] * 19, progress={9})) == set()
    completing = StepRecord(9, DO_TASK, (1, 1, RIGHT), (1, 1, RIGHT), completed="common_task_1")
    futile = walk([DO_TASK] * 19)
    assert task_fixation([*futile[:9], completing, *futile[10:]]) == set()


# ---- doors ----

def test_door_toggle_same_door_three_times_within_ten():
    # Open, walk away and back, close, walk, open: door actions at 0, 3, 6 -> flagged.
    actions = [OPEN_DOOR, F, B, CLOSE_DOOR, F, B, OPEN_DOOR]
    assert door_toggle(walk(actions, doors={0: DOOR, 3: DOOR, 6: DOOR})) == {0, 3, 6}
    # Two different doors, or actions that did nothing (door None), do not count together.
    assert door_toggle(walk(actions, doors={0: DOOR, 3: (1, 1), 6: DOOR})) == set()
    assert door_toggle(walk(actions, doors={0: DOOR, 6: DOOR})) == set()
    # 0, 5, 10 on one door: 11 decisions -> not flagged.
    spread = [OPEN_DOOR, *[N] * 4, CLOSE_DOOR, *[N] * 4, OPEN_DOOR]
    assert door_toggle(walk(spread, doors={0: DOOR, 5: DOOR, 10: DOOR})) == set()


def test_door_spam_five_door_actions_without_moving():
    spam = [OPEN_DOOR, CLOSE_DOOR] * 2 + [OPEN_DOOR]
    assert door_spam(walk(spam)) == set(range(5))
    assert door_spam(walk(spam[:4])) == set()
    assert door_spam(walk([*spam[:2], F, *spam[2:]])) == set()  # a step in between
    # Door actions at 0, 3, 6, 9, 12 (13 decisions) -> flagged; at 0, 4, ..., 16 -> not.
    assert door_spam(walk([OPEN_DOOR, N, N] * 4 + [OPEN_DOOR])) == {0, 3, 6, 9, 12}
    assert door_spam(walk([OPEN_DOOR, N, N, N] * 4 + [OPEN_DOOR])) == set()


# ---- putting it together ----

def test_ordinary_play_flags_nothing():
    # Walk to a station, turn to face it, work it, walk on through a door.
    actions = [F] * 6 + [TR] + [DO_TASK] * 8 + [TL, F, F, OPEN_DOOR, F, F, F]
    steps = walk(actions, progress=set(range(7, 15)), doors={18: DOOR})
    assert all(found == () for found in detect(steps).values())


def test_detect_failures_reports_env_step_numbers():
    steps = walk([F, *[N] * 5, F], first_step=100)
    found = detect(steps)
    assert set(found) == set(PATTERNS)
    assert found["noop_stall"] == (101, 102, 103, 104, 105)
    rates = failure_rates(found, len(steps))
    assert rates["noop_stall"] == pytest.approx(5 / 7)
    assert rates["ping_pong"] == 0.0


def test_failure_rates_and_passive_active_totals():
    # 20 decisions: NOOP x5 (stall, 5/20) then F B F B F (oscillation 5/20, ping-pong 5/20),
    # then 10 futile DO_TASKs (fixation 10/20). Passive 0.25 + 0.5; active 0.25 + 0.25.
    steps = walk([N] * 5 + [F, B, F, B, F] + [DO_TASK] * 10)
    rates = failure_rates(detect(steps), len(steps))
    assert rates["noop_stall"] == 0.25
    assert rates["task_fixation"] == 0.5
    assert rates["move_oscillation"] == 0.25
    assert rates["ping_pong"] == 0.25
    assert failure_totals(rates) == {"passive": 0.75, "active": 0.5}


def test_no_steps_gives_no_rates():
    rates = failure_rates(detect([]), 0)
    assert all(rate is None for rate in rates.values())
    assert failure_totals(rates) == {"passive": None, "active": None}


def test_radar_normalises_to_one_global_maximum():
    shapes = radar({"a": {"ping_pong": 0.2, "noop_stall": 0.1}, "b": {"door_spam": 0.4},
                    "c": {"ping_pong": None}})
    assert shapes["a"]["ping_pong"] == 0.5
    assert shapes["a"]["noop_stall"] == 0.25
    assert shapes["b"]["door_spam"] == 1.0
    assert set(shapes["c"].values()) == {0.0}
    assert set(shapes["a"]) == {"door_spam", "ping_pong", "move_backtrack", "strafe_backtrack",
                                "noop_stall", "task_fixation"}
    assert radar({"a": {}}) == {"a": dict.fromkeys(shapes["a"], 0.0)}
