"""Automatic failure detection over one agent's decisions (spec §13, paper App. J.3).

Every detector reads the agent's task-phase decisions in order (`StepRecord`s of records.py)
and returns the indices of the decisions that make up the pattern. Rules shared by all of them
(docs/rules/socialgrid.md, "Metrics and failure analysis", says the same in prose):

- "Within N steps" means within N consecutive decisions of the agent: from the first decision of
  an occurrence to the last one, at most N decisions. A gap in env step numbers (a meeting, say)
  does not break a window: the agent made no decision in between.
- Only the decisions that take part in the pattern are flagged, not the whole window, and a
  decision counts once per pattern however many windows it is in.
- Step actions (forward, backward, strafes) are read from the action ids; "no movement" and
  "position change" from the poses (a blocked step does not change the position).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from itertools import pairwise

from engine.socialgrid.moves import (
    CLOSE_DOOR,
    DO_TASK,
    MOVE_BACKWARD,
    MOVE_FORWARD,
    NOOP,
    OPEN_DOOR,
    STRAFE_LEFT,
    STRAFE_RIGHT,
    TURNS,
)
from engine.socialgrid.records import StepRecord

# The thresholds of the paper's App. J.3 (count, then window in decisions).
PING_PONG_TILES, PING_PONG_RETURNS, PING_PONG_WINDOW = 3, 4, 20
BACKTRACK_LOOPS, BACKTRACK_WINDOW = 3, 15
OSCILLATION_REVERSALS, OSCILLATION_WINDOW = 4, 10
TURN_TOGGLE_TURNS, TURN_TOGGLE_WINDOW = 4, 8
NOOP_STALL_RUN = 5
TASK_FIXATION_RUN = 10  # spec §21: consecutive DO_TASK with no progress
DOOR_TOGGLE_ACTIONS, DOOR_TOGGLE_WINDOW = 3, 10
DOOR_SPAM_ACTIONS, DOOR_SPAM_WINDOW = 5, 15

PATTERNS = ("ping_pong", "move_backtrack", "strafe_backtrack", "move_oscillation",
            "strafe_oscillation", "turn_toggle", "noop_stall", "task_fixation", "door_toggle",
            "door_spam")
PASSIVE = ("noop_stall", "task_fixation")  # the agent freezes
ACTIVE = tuple(p for p in PATTERNS if p not in PASSIVE)  # the agent acts, but badly
# The six modes of the paper's radar chart (Fig. 6).
RADAR = ("door_spam", "ping_pong", "move_backtrack", "strafe_backtrack", "noop_stall",
         "task_fixation")

Span = tuple[int, int]  # first and last decision index (inclusive) of one occurrence
Run = tuple[int, int, int]  # action, first index, last index of a run of equal actions


def _moved(step: StepRecord) -> bool:
    return step.before[:2] != step.after[:2]


def _runs(steps: Sequence[StepRecord]) -> list[Run]:
    """Maximal runs of consecutive decisions with the same action."""
    runs: list[Run] = []
    for i, step in enumerate(steps):
        if runs and runs[-1][0] == step.action:
            runs[-1] = (step.action, runs[-1][1], i)
        else:
            runs.append((step.action, i, i))
    return runs


def _clustered(spans: Sequence[Span], count: int, window: int) -> set[int]:
    """Indices of every occurrence that, with the next `count - 1` ones, fits in `window`
    consecutive decisions. `spans` are in order (starts and ends both non-decreasing)."""
    flagged: set[int] = set()
    for k in range(len(spans) - count + 1):
        group = spans[k:k + count]
        if group[-1][1] - group[0][0] + 1 <= window:
            for first, last in group:
                flagged.update(range(first, last + 1))
    return flagged


def _still_segments(steps: Sequence[StepRecord]) -> list[list[int]]:
    """Maximal runs of decisions that leave the agent on its tile (a move separates them)."""
    segments: list[list[int]] = [[]]
    for i, step in enumerate(steps):
        if _moved(step):
            segments.append([])
        else:
            segments[-1].append(i)
    return [s for s in segments if s]


def ping_pong(steps: Sequence[StepRecord]) -> set[int]:
    """A stretch of at most 20 decisions spent on at most 3 tiles in which the agent comes back
    at least 4 times to a tile it already stood on in that stretch. Flags the stretch's
    arrivals (decisions that change the tile), the first one out included."""
    flagged: set[int] = set()
    for start in range(len(steps)):
        seen = {steps[start].before[:2]}
        arrivals: list[int] = []
        returns = 0
        for i in range(start, min(len(steps), start + PING_PONG_WINDOW)):
            tile = steps[i].after[:2]
            if tile not in seen and len(seen) == PING_PONG_TILES:
                break
            if _moved(steps[i]):
                arrivals.append(i)
                returns += tile in seen
            seen.add(tile)
        if returns >= PING_PONG_RETURNS:
            flagged.update(arrivals)
    return flagged


def _backtrack(steps: Sequence[StepRecord], out: int, back: int) -> set[int]:
    """Runs of `out` directly followed by runs of `back`, not both single steps (those are
    oscillation): at least 3 such pairs within 15 decisions. Flags the decisions of the pairs."""
    runs = _runs(steps)
    spans = [(a[1], b[2]) for a, b in pairwise(runs)
             if a[0] == out and b[0] == back and (a[1] < a[2] or b[1] < b[2])]
    return _clustered(spans, BACKTRACK_LOOPS, BACKTRACK_WINDOW)


def _oscillation(steps: Sequence[StepRecord], one: int, other: int) -> set[int]:
    """Reversals between single steps (a run of one step of `one` next to a run of one step of
    `other`, either order): at least 4 within 10 decisions. Flags the reversing decisions."""
    runs = _runs(steps)
    spans = [(a[1], b[2]) for a, b in pairwise(runs)
             if {a[0], b[0]} == {one, other} and a[1] == a[2] and b[1] == b[2]]
    return _clustered(spans, OSCILLATION_REVERSALS, OSCILLATION_WINDOW)


def move_backtrack(steps: Sequence[StepRecord]) -> set[int]:
    return _backtrack(steps, MOVE_FORWARD, MOVE_BACKWARD)


def strafe_backtrack(steps: Sequence[StepRecord]) -> set[int]:
    return _backtrack(steps, STRAFE_LEFT, STRAFE_RIGHT)


def move_oscillation(steps: Sequence[StepRecord]) -> set[int]:
    return _oscillation(steps, MOVE_FORWARD, MOVE_BACKWARD)


def strafe_oscillation(steps: Sequence[StepRecord]) -> set[int]:
    return _oscillation(steps, STRAFE_LEFT, STRAFE_RIGHT)


def turn_toggle(steps: Sequence[StepRecord]) -> set[int]:
    """At least 4 turns within 8 decisions with no change of tile among them. Flags the turns."""
    flagged: set[int] = set()
    for segment in _still_segments(steps):
        turns = [(i, i) for i in segment if steps[i].action in TURNS]
        flagged |= _clustered(turns, TURN_TOGGLE_TURNS, TURN_TOGGLE_WINDOW)
    return flagged


def _long_runs(flags: Sequence[bool], length: int) -> set[int]:
    """Indices of every run of at least `length` consecutive true flags."""
    flagged: set[int] = set()
    run: list[int] = []
    for i, flag in enumerate([*flags, False]):
        if flag:
            run.append(i)
            continue
        if len(run) >= length:
            flagged.update(run)
        run = []
    return flagged


def noop_stall(steps: Sequence[StepRecord]) -> set[int]:
    """Runs of at least 5 consecutive NOOPs; flags the whole run. A person's chosen wait (a
    NOOP sent with `"wait": true`) is no stall: it breaks a run, as a bot never sends one."""
    return _long_runs([s.action == NOOP and not s.waiting for s in steps], NOOP_STALL_RUN)


def task_fixation(steps: Sequence[StepRecord]) -> set[int]:
    """Runs of at least 10 consecutive DO_TASKs none of which made progress (spec §21); a
    toggle that advances or completes a task ends the run."""
    futile = [s.action == DO_TASK and not s.progressed and s.completed is None for s in steps]
    return _long_runs(futile, TASK_FIXATION_RUN)


def door_toggle(steps: Sequence[StepRecord]) -> set[int]:
    """At least 3 open/close actions that acted on the same door within 10 decisions (moving in
    between allowed). Flags those actions."""
    by_door: dict[tuple[int, int], list[Span]] = defaultdict(list)
    for i, step in enumerate(steps):
        if step.action in (OPEN_DOOR, CLOSE_DOOR) and step.door is not None:
            by_door[step.door].append((i, i))
    flagged: set[int] = set()
    for spans in by_door.values():
        flagged |= _clustered(spans, DOOR_TOGGLE_ACTIONS, DOOR_TOGGLE_WINDOW)
    return flagged


def door_spam(steps: Sequence[StepRecord]) -> set[int]:
    """At least 5 door actions (whether or not they did anything) within 15 decisions with no
    change of tile among them. Flags the door actions."""
    flagged: set[int] = set()
    for segment in _still_segments(steps):
        doors = [(i, i) for i in segment if steps[i].action in (OPEN_DOOR, CLOSE_DOOR)]
        flagged |= _clustered(doors, DOOR_SPAM_ACTIONS, DOOR_SPAM_WINDOW)
    return flagged


DETECTORS = {
    "ping_pong": ping_pong, "move_backtrack": move_backtrack,
    "strafe_backtrack": strafe_backtrack, "move_oscillation": move_oscillation,
    "strafe_oscillation": strafe_oscillation, "turn_toggle": turn_toggle,
    "noop_stall": noop_stall, "task_fixation": task_fixation, "door_toggle": door_toggle,
    "door_spam": door_spam,
}


def detect_failures(steps: Sequence[StepRecord]) -> dict[str, tuple[int, ...]]:
    """Per pattern, the env step numbers of the flagged decisions, ascending."""
    return {name: tuple(sorted(steps[i].step for i in DETECTORS[name](steps)))
            for name in PATTERNS}


def failure_rates(flagged: Mapping[str, Sequence[int]], steps: int) -> dict[str, float | None]:
    """Per pattern, flagged decisions / all the agent's decisions (None when it made none)."""
    return {name: len(flagged[name]) / steps if steps else None for name in PATTERNS}


def failure_totals(rates: Mapping[str, float | None]) -> dict[str, float | None]:
    """Passive (NOOP stall + task fixation) and active (the other eight) failure: sums of the
    patterns' rates, as the paper sums them (a decision in two patterns counts twice)."""
    if any(rates[name] is None for name in PATTERNS):
        return {"passive": None, "active": None}
    return {"passive": sum(rates[name] or 0.0 for name in PASSIVE),
            "active": sum(rates[name] or 0.0 for name in ACTIVE)}


def radar(rates_by_agent: Mapping[Hashable, Mapping[str, float | None]]
          ) -> dict[Hashable, dict[str, float]]:
    """The radar chart's six modes per agent, divided by one global maximum: the largest rate of
    any of the six modes of any agent, so shapes stay comparable (all 0 when nothing failed).
    A missing rate (an agent with no decisions) reads as 0."""
    values = {agent: {mode: rates.get(mode) or 0.0 for mode in RADAR}
              for agent, rates in rates_by_agent.items()}
    top = max((v for modes in values.values() for v in modes.values()), default=0.0)
    return {agent: {mode: v / top if top else 0.0 for mode, v in modes.items()}
            for agent, modes in values.items()}
