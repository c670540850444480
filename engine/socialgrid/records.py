"""The plain records SocialGrid's metrics are computed from (spec §12-§14): each agent's
task-phase decisions, its tasks, the ballots, and the game's state after every env step. The
rules turn a game record into these; nothing here knows about boards, prompts or the server."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Pose = tuple[int, int, int]  # x, y, facing (100 RIGHT, 101 DOWN, 102 LEFT, 103 UP)


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One agent's decision at one env step (task phase only)."""

    step: int  # env step number (0-based) at which the action was taken
    action: int  # 0..13 as applied (after the env's own checks)
    before: Pose
    after: Pose
    progressed: bool = False  # DO_TASK advanced one of the agent's tasks
    completed: str | None = None  # name of a task this action completed
    door: tuple[int, int] | None = None  # door tile an OPEN/CLOSE_DOOR acted on (None: nothing)
    waiting: bool = False  # a NOOP a person chose as a wait (the TUI's z), not a stall


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """One task of one crewmate."""

    name: str  # "common_task_1", "short_task_4", "long_task_12"
    kind: str  # "common" | "short" | "long"
    steps_required: int  # 3 / 8 / 13
    weight: float = 1.0
    reached_step: int | None = None  # first step after which it stood next to the station facing it
    completed_step: int | None = None  # env step of the last toggle (None: not completed)
    l_opt: float = 0.0  # oracle distance from the episode-start pose + steps_required
    leg_start_step: int = 0  # env step the previous task was completed (0 for the first)
    l_opt_leg: float = 0.0  # oracle distance from the pose at leg_start_step + steps_required


@dataclass(frozen=True, slots=True)
class VoteRecord:
    """One ballot at one meeting."""

    step: int  # env step of the meeting
    meeting: int  # meeting number 0, 1, ...
    voter: int
    target: int | None  # seat voted for; None = skip
    trust: Mapping[int, float]  # 0.0 = surely impostor .. 1.0 = surely crewmate
    thought: str = ""


def ballot_votes(ballots: Mapping[str, Any]) -> list[VoteRecord]:
    """The VoteRecords of a `ballots` event's data (its meeting numbers from 1; records count
    meetings from 0)."""
    return [VoteRecord(ballots["step"], ballots["meeting"] - 1, int(key), b["target"],
                       {int(k): v for k, v in b["trust"].items()}, b.get("thought", ""))
            for key, b in ballots["ballots"].items()]


@dataclass(frozen=True, slots=True)
class StateRecord:
    """The game after one env step, for the win-lean curve."""

    step: int
    tasks_done: int  # tasks completed so far, over all crewmates
    tasks_total: int  # all crewmates' tasks
    crew_alive: int
    impostors_alive: int
    alive: frozenset[int] | None = None  # seats alive; None: count every rating of a meeting
