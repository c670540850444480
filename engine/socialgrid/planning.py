"""SocialGrid planning metrics (spec §12, §21): task performance (TP), planning success rate
(PSR), planning efficiency per task (PE, from the start or per leg) and planning performance
(PP), over `TaskRecord`s. Every choice the paper leaves open is written down in
docs/rules/socialgrid.md, "Metrics and failure analysis"."""

from __future__ import annotations

from collections.abc import Sequence

from engine.socialgrid.records import TaskRecord


def task_done(task: TaskRecord) -> bool:
    return task.completed_step is not None


def task_performance(tasks: Sequence[TaskRecord]) -> float | None:
    """TP = sum of the completed tasks' weights / sum of all weights (None without tasks)."""
    total = sum(t.weight for t in tasks)
    return sum(t.weight for t in tasks if task_done(t)) / total if total > 0 else None


def planning_success_rate(tasks: Sequence[TaskRecord]) -> float | None:
    """PSR = tasks reached / tasks. A completed task was reached even if no reach was logged."""
    if not tasks:
        return None
    return sum(t.reached_step is not None or task_done(t) for t in tasks) / len(tasks)


def planning_efficiency(task: TaskRecord) -> float:
    """PE = min(1, L_opt / L_act), L_act = completed_step + 1: the action at 0-based step s is
    the agent's (s + 1)-th env step. 0 when not completed."""
    if task.completed_step is None:
        return 0.0
    return min(1.0, task.l_opt / (task.completed_step + 1))


def leg_efficiency(task: TaskRecord) -> float:
    """Per-leg PE (spec §21) = min(1, l_opt_leg / steps of the leg). A later leg runs from the
    step after the previous completion to this one (completed_step - leg_start_step steps); the
    first leg (leg_start_step 0: no task can finish at step 0) counts completed_step + 1."""
    if task.completed_step is None:
        return 0.0
    taken = task.completed_step - task.leg_start_step if task.leg_start_step > 0 \
        else task.completed_step + 1
    return min(1.0, task.l_opt_leg / taken) if taken > 0 else 0.0


def planning_performance(tasks: Sequence[TaskRecord], per_leg: bool = False) -> float | None:
    """PP = mean PE over completed tasks; 0 when none is completed, None without tasks."""
    if not tasks:
        return None
    efficiency = leg_efficiency if per_leg else planning_efficiency
    done = [efficiency(t) for t in tasks if task_done(t)]
    return sum(done) / len(done) if done else 0.0
