"""The per-task tables of the SocialMaze reports (`parlor league maze`, `parlor maze report`):
each model's or person's accuracy with its 95% Wilson interval, the task's columns and
breakdowns, the baseline of the same instances, and the paper's numbers beside them."""

from __future__ import annotations

from typing import Any

from engine.find_the_spy import published as find_the_spy
from engine.hidden_role import published as hidden_role
from engine.rating_estimation import published as rating_estimation
from engine.review_decision import published as review_decision
from engine.social_graph import published as social_graph
from engine.socialmaze_published import Task
from engine.user_profile import published as user_profile
from server.reports.stats import rate as rate_estimate
from server.reports.tables import share, with_interval

# Each SocialMaze task's report, in the order the reports list them (the paper's numbers are
# its env package's published.py)
TASKS = {t.env: t for t in (hidden_role.TASK, social_graph.TASK, find_the_spy.TASK,
                            rating_estimation.TASK, review_decision.TASK, user_profile.TASK)}

Rows = list[tuple[str, int, dict[str, Any]]]  # (who, games, the env's aggregate of their games)


def _answers(overall: dict[str, Any], games: int) -> int:
    """How many answers the headline is a share of: a game's (one seat) or, where a player
    may hold several seats of a game (Find the Spy), the answers counted."""
    return int(overall.get("answers") or games)


def task_json(task: Task, setting: str, rows: Rows) -> dict[str, Any]:
    models = {}
    for who, games, aggregate in rows:
        overall = aggregate["overall"]
        rate, n = overall.get(task.headline), _answers(overall, games)
        models[who] = {"games": games, "answers": n, "accuracy": rate, "accuracy_95": interval(rate, n),
                       **{k: overall.get(k) for k in task.columns},
                       **({task.baseline[0]: overall.get(task.baseline[0])}
                          if task.baseline else {}),
                       "by_role": aggregate.get("roles"), "by_kind": aggregate.get("kinds")}
    return {"preset": setting, "headline": task.headline_label, "models": models,
            "published": task.published, "published_on": task.note}


def task_lines(task: Task, setting: str, rows: Rows, who: str = "model",
               same_instances: bool = True) -> list[str]:
    """The task's table; the baseline once when every row played the same instances (a league),
    else under each row (a report of whatever games were played)."""
    # A player holding several seats of a game (Find the Spy) gives several answers a game:
    # the interval is over the answers, so they are a column of their own.
    several = any(_answers(a["overall"], games) != games for _, games, a in rows)
    width = max([32, *(len(name) + 1 for name, _, _ in rows)])
    lines = [f"{task.env} ({setting}): {task.headline_label}",
             f"{who:<{width}}{'games':>6}" + (f"{'answers':>8}" if several else "")
             + f" {'accuracy [95% CI]':>20}"
             + "".join(f"{title:>9}" for title in task.columns.values())]
    for name, games, aggregate in rows:
        overall = aggregate["overall"]
        answers = _answers(overall, games)
        lines.append(f"{name:<{width}}{games:>6}" + (f"{answers:>8}" if several else "")
                     + f" {pct(overall.get(task.headline), answers):>20}"
                     + "".join(f"{share(overall.get(k)):>9}" for k in task.columns))
        if aggregate.get("kinds"):
            lines.append("  by query kind: " + "; ".join(
                f"{kind} {share(k.get('accuracy'))} of {k['games']}"
                for kind, k in aggregate["kinds"].items()))
        if aggregate.get("roles"):
            lines.append("  by Player 1's role: " + "; ".join(
                f"{role} {share(r.get(task.headline))} of {r['games']}"
                for role, r in aggregate["roles"].items()))
        if task.baseline and not same_instances:
            key, what = task.baseline
            lines.append(f"  baseline on these instances: {what}: {share(overall.get(key))}")
    if task.baseline and rows and same_instances:
        key, what = task.baseline
        lines.append(f"  baseline on these instances: {what}: "
                     f"{share(rows[0][2]['overall'].get(key))}")
    paper = ", ".join(f"{m} {v:.1f}%" for m, v in task.published.items() if v is not None)
    lines.append(f"  paper (Table 8, {task.note}): {paper}")
    if task.breakdown:
        lines.append(f"  paper, {task.breakdown_title}: " + "; ".join(
            f"{m} {'/'.join(f'{v:.1f}' for v in r)}" for m, r in task.breakdown.items()))
    return lines


def interval(rate: float | None, n: int) -> list[float] | None:
    if rate is None or not n:
        return None
    found = rate_estimate(rate * n, n)
    return [found.low, found.high]


def pct(rate: float | None, n: int) -> str:
    return with_interval(rate, interval(rate, n))
