"""Which of an env's stored seat metrics `parlor report` compares (its paper's metrics), how each
is summed (a rate, a mean or a ratio of sums), which roles hold it, and the paper's published
numbers for the same figure as reference rows (each env's published module; docs/reports.md).

The metrics are keys of each game's `metrics.seats[seat]` (the env's `metric_labels` name them);
a seat-game counts towards a metric when its value there is a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.amongagents.published import TABLE_1 as AMONG_TABLE_1
from engine.impostor.published import SELF_DECLARATION, TABLE1_COLUMNS
from engine.impostor.published import TABLE1 as IMPOSTOR_TABLE1
from engine.socialgrid.published import TABLE1 as GRID_TABLE1
from server.reports.maze_tables import TASKS

RATE, MEAN, RATIO = "rate", "mean", "ratio"


@dataclass(frozen=True)
class Metric:
    """`key` a seat metric: a rate (0/1 per seat-game, or successes out of `den` trials), a mean
    of its values, or a ratio (sum of `key` over the sum of `den`, pooled over seat-games)."""

    key: str
    kind: str
    den: tuple[str, ...] = ()  # a rate's trials or a ratio's denominator: the sum of these keys
    roles: tuple[str, ...] = ()  # only seats of these roles hold it (empty: every role)
    label: str = ""  # when the env's metric_labels do not say it (a ratio)


@dataclass(frozen=True)
class Reference:
    """The paper's number for a metric (a share 0-1 for rates and ratios), who it measured, and
    on what."""

    who: str
    value: float
    note: str


WIN = Metric("win", RATE)
REWARD = Metric("reward", MEAN)

METRICS: dict[str, tuple[Metric, ...]] = {
    "colonel-blotto": (WIN, REWARD, Metric("rounds_won", MEAN)),
    "three-player-ipd": (WIN, REWARD, Metric("score", MEAN), Metric("cooperation_rate", MEAN)),
    "codenames": (WIN, REWARD, Metric("team_revealed", MEAN),
                  Metric("correct_guesses", RATIO, ("guesses",), ("operative",),
                         "Correct guesses (share of guesses)"),
                  Metric("assassin_hit", RATE, roles=("operative",))),
    "secret-mafia": (WIN, Metric("survived", RATE),
                     Metric("votes_against_mafia", RATIO, ("votes_cast",),
                            label="Day votes against a Mafia member (share of votes)"),
                     REWARD),
    "socialgrid": (WIN, Metric("tp", MEAN, roles=("crewmate",)),
                   Metric("psr", MEAN, roles=("crewmate",)),
                   Metric("votes_correct", RATIO, ("votes",), ("crewmate",),
                          "Detection accuracy (share of votes for an impostor)"),
                   Metric("brier", MEAN), Metric("failure_any", MEAN)),
    "amongagents": (WIN, Metric("survived", RATE),
                    Metric("votes_for_impostor", RATIO, ("vote_actions",), ("Crewmate",),
                           "Votes for an impostor (share of votes)"),
                    Metric("tasks_completed", MEAN, roles=("Crewmate",))),
    "impostor": (WIN, Metric("voted_impostor", RATE, roles=("Majority",)),
                 Metric("self_declared", RATE, roles=("Impostor",)),
                 Metric("guess_correct", RATE, roles=("Impostor",)),
                 Metric("centrality", MEAN)),
    "hidden-role": (Metric("both", RATE), Metric("crim", RATE), Metric("self", RATE)),
    "social-graph": (Metric("right", RATIO, ("asked",),
                            label="Questions answered right (share of questions)"),),
    "find-the-spy": (Metric("right", RATIO, ("right", "wrong"),
                            label="Answers right (share of answers)"),),
    "rating-estimation": (Metric("right", RATE),),
    "review-decision": (Metric("right", RATE),),
    "user-profile": (Metric("right", RATE),),
}
# SocialMaze tasks: the metric Table 8's accuracy is (social-graph's Table 8 is the mean over
# the query types; ours pools the questions)
_TABLE8 = {"hidden-role": "both", "social-graph": "right", "find-the-spy": "right",
           "rating-estimation": "right", "review-decision": "right", "user-profile": "right"}
_IMPOSTOR = {("win", "Impostor"): "impostor_win", ("win", "Majority"): "majority_win",
             ("voted_impostor", "Majority"): "detection", ("centrality", None): "centrality"}


def metrics(env_id: str) -> tuple[Metric, ...]:
    """The env's compared metrics; an env not listed compares wins and reward."""
    return METRICS.get(env_id, (WIN, REWARD))


def label(metric: Metric, labels: Mapping[str, str]) -> str:
    return metric.label or labels.get(metric.key, metric.key)


def references(env_id: str, preset: str | None, metric: Metric, role: str | None
               ) -> list[Reference]:
    """The paper's numbers for this metric (and role), or none: the MindGames envs (the paper
    reports TrueSkill posteriors of its competition, no per-metric numbers) and any metric the
    paper did not report."""
    if env_id in _TABLE8 and metric.key == _TABLE8[env_id]:
        task = TASKS[env_id]
        return [Reference(who, value / 100, f"SocialMaze Table 8, {task.note}")
                for who, value in task.published.items() if value is not None]
    if env_id == "impostor":
        return _impostor(metric.key, role)
    if env_id == "socialgrid" and metric.key == "win" and preset in GRID_TABLE1:
        column = {"crewmate": 1, "impostor": 2}.get(role or "")
        return [] if column is None else [
            Reference(who, row[column] / 100, f"SocialGrid Table 1, {preset}, one model a side")
            for who, row in GRID_TABLE1[preset].items()]
    if env_id == "amongagents" and metric.key == "win" and preset == "paper":
        return _amongagents(role)
    return []


def _impostor(key: str, role: str | None) -> list[Reference]:
    column = _IMPOSTOR.get((key, role)) or _IMPOSTOR.get((key, None))
    if column is not None:
        at = TABLE1_COLUMNS.index(column)
        scale = 1 if column == "centrality" else 100
        return [Reference(who, row[at] / scale, "Impostor paper Table 1, the whole grid")
                for who, row in IMPOSTOR_TABLE1.items()]
    at = {("self_declared", "Impostor"): 0, ("guess_correct", "Impostor"): 1}.get((key, role))
    if at is None:
        return []
    return [Reference(who, row[at] / 100, "Impostor paper §10, the whole grid")
            for who, row in SELF_DECLARATION.items()]


def _amongagents(role: str | None) -> list[Reference]:
    """Table 1's share of games each side won (the impostors: crew eliminated or time
    limit), per setup and planner setting, 20 games each."""
    out = []
    for (setup, planner), shares in AMONG_TABLE_1.items():
        impostors = (shares[0] + shares[1]) / 100
        value = {"Impostor": impostors, "Crewmate": 1 - impostors}.get(role or "")
        if value is not None:
            planned = "" if planner is None else (", planner" if planner else ", no planner")
            out.append(Reference(f"{setup}{planned}", value,
                                 "AmongAgents Table 1 (20 games a setup)"))
    return out
