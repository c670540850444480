"""SocialGrid metrics and analyses (spec §12-§14; paper §2.4, App. C, E, J, L) as pure functions
over plain records. The rules turn a game record into these records; nothing here knows about
boards, prompts or the server. Failure detectors live in detectors.py.

Every choice the paper leaves open is written down in docs/rules/socialgrid.md, "Metrics and
failure analysis"; the docstrings below repeat the formula and the reason in short.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from engine.aggregate import Fold, PerGame, Totals
from engine.socialgrid.detectors import (
    ACTIVE,
    PASSIVE,
    PATTERNS,
    detect_failures,
    failure_rates,
    failure_totals,
)

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


@dataclass(frozen=True, slots=True)
class StateRecord:
    """The game after one env step, for the win-lean curve."""

    step: int
    tasks_done: int  # tasks completed so far, over all crewmates
    tasks_total: int  # all crewmates' tasks
    crew_alive: int
    impostors_alive: int
    alive: frozenset[int] | None = None  # seats alive; None: count every rating of a meeting


# ---- tasks (spec §12) ----------------------------------------------------------------------

def _done(task: TaskRecord) -> bool:
    return task.completed_step is not None


def task_performance(tasks: Sequence[TaskRecord]) -> float | None:
    """TP = sum of the completed tasks' weights / sum of all weights (None without tasks)."""
    total = sum(t.weight for t in tasks)
    return sum(t.weight for t in tasks if _done(t)) / total if total > 0 else None


def planning_success_rate(tasks: Sequence[TaskRecord]) -> float | None:
    """PSR = tasks reached / tasks. A completed task was reached even if no reach was logged."""
    if not tasks:
        return None
    return sum(t.reached_step is not None or _done(t) for t in tasks) / len(tasks)


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
    done = [efficiency(t) for t in tasks if _done(t)]
    return sum(done) / len(done) if done else 0.0


# ---- trust (spec §12, §20 item 9) -------------------------------------------------------------

BRIER_RANDOM = 1 / 3  # E[U^2] for trust drawn uniformly from [0, 1], whatever the role
BRIER_HALF = 0.25  # a constant trust of 0.5


def trust_series(votes: Iterable[VoteRecord], voter: int) -> dict[int, list[float]]:
    """The voter's trust in each other seat it rated, in meeting order. A pair's K is the number
    of meetings at which the voter rated that seat; a rating of itself is ignored."""
    series: dict[int, list[float]] = defaultdict(list)
    for vote in sorted((v for v in votes if v.voter == voter), key=lambda v: (v.meeting, v.step)):
        for seat, trust in vote.trust.items():
            if seat != voter:
                series[seat].append(float(trust))
    return dict(series)


def pair_brier(series: Sequence[float], impostor: bool) -> float:
    """BS_ij = mean over t of ((1 - T_ij(t)) - y_j)^2, y_j = 1 for an impostor."""
    y = 1.0 if impostor else 0.0
    return sum(((1.0 - t) - y) ** 2 for t in series) / len(series)


def pair_volatility(series: Sequence[float]) -> float | None:
    """TV_ij = mean |T(t+1) - T(t)| over consecutive ratings; None with fewer than 2."""
    if len(series) < 2:
        return None
    return sum(abs(b - a) for a, b in pairwise(series)) / (len(series) - 1)


def brier_score(votes: Iterable[VoteRecord], voter: int,
                impostors: frozenset[int]) -> float | None:
    """The voter's Brier score: the mean of BS_ij over the seats it rated (None: no ratings)."""
    pairs = [pair_brier(s, j in impostors) for j, s in trust_series(votes, voter).items()]
    return sum(pairs) / len(pairs) if pairs else None


def trust_volatility(votes: Iterable[VoteRecord], voter: int) -> float | None:
    """The voter's volatility: the mean of TV_ij over the pairs rated at least twice."""
    values = [pair_volatility(s) for s in trust_series(votes, voter).values()]
    pairs = [v for v in values if v is not None]
    return sum(pairs) / len(pairs) if pairs else None


# ---- detection accuracy (spec §12, paper App. C.2) ----------------------------------------------

def detection_accuracy(votes: Iterable[VoteRecord], voter: int,
                       impostors: frozenset[int]) -> float | None:
    """DA = the voter's non-skip votes for an impostor / its non-skip votes (None: none cast)."""
    targets = [v.target for v in votes if v.voter == voter and v.target is not None]
    return sum(t in impostors for t in targets) / len(targets) if targets else None


def detection_baseline(players: int, impostors: int) -> float | None:
    """Chance of a uniformly random non-skip vote by a crewmate hitting an impostor:
    |I| / (N - 1). The paper fixes it at game start (2/6); alive counts give the live one."""
    return impostors / (players - 1) if players > 1 else None


# ---- vote reasoning classes (spec §14, paper App. E) --------------------------------------------

_FLAGS = re.IGNORECASE | re.DOTALL
STRONG = re.compile(r"kill|vent|saw", _FLAGS)
SCARCITY = re.compile(r"arbitrar|equal.*trust|no.*evidence", _FLAGS)
HEURISTIC = re.compile(r"stationary|loop|erratic|near.*body", _FLAGS)
THOUGHT_CLASSES = ("strong", "scarcity", "heuristic", "other")  # precedence, first match wins
OVER_TRUST = 0.7  # a trust strictly above this is "high"
CREW_CLASSES = (*THOUGHT_CLASSES, "over_trust")
IMPOSTOR_CLASSES = ("misdirection", "framed", "teammate")


def thought_class(thought: str) -> str:
    """One class per thought, first match in THOUGHT_CLASSES order: strong evidence is left out
    of the failure modes (App. E), and a stated lack of evidence outranks the cues around it."""
    for name, pattern in (("strong", STRONG), ("scarcity", SCARCITY), ("heuristic", HEURISTIC)):
        if pattern.search(thought):
            return name
    return "other"


def over_trusts(vote: VoteRecord, impostors: frozenset[int]) -> bool:
    """The ballot rates at least one impostor (other than the voter) above 0.7."""
    return any(t > OVER_TRUST for j, t in vote.trust.items() if j in impostors and j != vote.voter)


def impostor_vote_class(vote: VoteRecord, impostors: frozenset[int]) -> str | None:
    """An impostor's non-skip ballot: "teammate" (an impostor, itself included), "misdirection"
    (a crewmate, while rating a fellow impostor above 0.7) or "framed" (any other crewmate vote).
    None for a skip."""
    if vote.target is None:
        return None
    if vote.target in impostors:
        return "teammate"
    fellows = impostors - {vote.voter}
    protects = any(vote.trust.get(j, 0.0) > OVER_TRUST for j in fellows)
    return "misdirection" if protects else "framed"


def vote_class_counts(votes: Iterable[VoteRecord], impostors: frozenset[int]) -> dict[str, int]:
    """Counts over non-skip ballots (skips have no accuracy): for crew ballots, per class and
    over-trust, `{c}_votes` and `{c}_correct` (target an impostor), plus `crew_votes` and
    `crew_correct`; for impostor ballots `imp_votes` and `{c}_votes` per impostor class."""
    counts = {"crew_votes": 0, "crew_correct": 0, "imp_votes": 0}
    counts |= {f"{c}_{k}": 0 for c in CREW_CLASSES for k in ("votes", "correct")}
    counts |= {f"{c}_votes": 0 for c in IMPOSTOR_CLASSES}
    for vote in votes:
        if vote.target is None:
            continue
        if vote.voter in impostors:
            counts["imp_votes"] += 1
            counts[f"{impostor_vote_class(vote, impostors)}_votes"] += 1
            continue
        correct = int(vote.target in impostors)
        classes = [thought_class(vote.thought)] + (["over_trust"] if over_trusts(vote, impostors)
                                                    else [])
        for name in ["crew", *classes]:
            counts[f"{name}_votes"] += 1
            counts[f"{name}_correct"] += correct
    return counts


_COUNT_KEYS = tuple(vote_class_counts((), frozenset()))


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def vote_class_shares(counts: Mapping[str, float]) -> dict[str, float | None]:
    """From `vote_class_counts` (or their sums over games): each crew class's share of crew
    votes and accuracy (as in the paper's Table 2 / 6), each impostor class's share of impostor
    votes (Table 7), and the pooled detection accuracy."""
    crew, imp = counts["crew_votes"], counts["imp_votes"]
    shares = {"detection_accuracy": _ratio(counts["crew_correct"], crew)}
    for c in CREW_CLASSES:
        shares[f"{c}_share"] = _ratio(counts[f"{c}_votes"], crew)
        shares[f"{c}_accuracy"] = _ratio(counts[f"{c}_correct"], counts[f"{c}_votes"])
    for c in IMPOSTOR_CLASSES:
        shares[f"{c}_share"] = _ratio(counts[f"{c}_votes"], imp)
    return shares


# ---- win-lean (paper App. L) ------------------------------------------------------------------

W_TASK, W_ALIVE, W_DETECT, ALPHA = 1.0, 0.5, 0.3, 2.0


def p_crew(task_completion: float, crew_alive: int, impostors_alive: int,
           detection: float) -> float:
    """p = (1 + tanh(alpha S)) / 2, S = w_task (TC - 0.5) + w_alive A + w_detect (DET - 0.5),
    A = (C - I) / (C + I) (0 when nobody is alive)."""
    alive = crew_alive + impostors_alive
    advantage = (crew_alive - impostors_alive) / alive if alive else 0.0
    score = (W_TASK * (task_completion - 0.5) + W_ALIVE * advantage
             + W_DETECT * (detection - 0.5))
    return 0.5 * (1.0 + math.tanh(ALPHA * score))


def detection_signal(ballots: Iterable[VoteRecord], impostors: frozenset[int],
                     alive: frozenset[int] | None = None) -> float:
    """DET = 1 - the mean of every trust crewmate voters gave impostors at one meeting, keeping
    only seats still alive (when `alive` is known); 0.5 (neutral) when no such rating exists."""
    def living(seat: int) -> bool:
        return alive is None or seat in alive

    ratings = [t for b in ballots if b.voter not in impostors and living(b.voter)
               for j, t in b.trust.items() if j in impostors and living(j)]
    return 1.0 - sum(ratings) / len(ratings) if ratings else 0.5


def win_lean(states: Sequence[StateRecord], votes: Iterable[VoteRecord],
             impostors: frozenset[int], end_step: int, crew_won: bool,
             horizon: int | None = None) -> list[tuple[int, float]]:
    """(step, p_crew) at each state up to `end_step`, using the latest meeting held at or before
    that step; then, if `horizon` is given, (s, 1.0 if the crew won else 0.0) for every step s
    after the end up to horizon - 1 (the terminal-filled curve; horizon = the step cap)."""
    meetings: dict[int, list[VoteRecord]] = defaultdict(list)
    for vote in votes:
        meetings[vote.meeting].append(vote)
    order = sorted(meetings.values(), key=lambda b: (b[0].step, b[0].meeting))
    curve: list[tuple[int, float]] = []
    latest: list[VoteRecord] = []
    k = 0
    for state in sorted(states, key=lambda s: s.step):
        if state.step > end_step:
            break
        while k < len(order) and order[k][0].step <= state.step:
            latest, k = order[k], k + 1
        tc = state.tasks_done / state.tasks_total if state.tasks_total else 0.0
        det = detection_signal(latest, impostors, state.alive)
        curve.append((state.step,
                      p_crew(tc, state.crew_alive, state.impostors_alive, det)))
    if horizon is not None:
        curve.extend((s, 1.0 if crew_won else 0.0) for s in range(end_step + 1, horizon))
    return curve


# ---- one game's summary and many games' aggregate -----------------------------------------------

_PATTERN_LABELS = {
    "ping_pong": "position ping-pong", "move_backtrack": "forward/back backtrack loop",
    "strafe_backtrack": "left/right backtrack loop", "move_oscillation": "forward/back oscillation",
    "strafe_oscillation": "left/right oscillation", "turn_toggle": "turning in place",
    "noop_stall": "NOOP stall", "task_fixation": "task fixation", "door_toggle": "door toggling",
    "door_spam": "door spam",
}
_CLASS_LABELS = {
    "strong": "strong evidence", "scarcity": "evidence scarcity", "heuristic": "weak heuristics",
    "other": "other reasoning", "over_trust": "over-trust (an impostor trusted > 0.7)",
}
_IMPOSTOR_CLASS_LABELS = {
    "misdirection": "misdirection (crewmate voted, teammate trusted > 0.7)",
    "framed": "framed a crewmate (no teammate protection)", "teammate": "voted for a teammate",
}
_CREW_MEANS = ("tp", "psr", "pp", "pp_leg", "brier", "volatility")  # averaged over crewmates
_MEANS = (*_CREW_MEANS, "detection_accuracy")  # averaged over games in aggregates

# A plain-English label for every key `summary` and `aggregate` can emit.
LABELS = {
    # seats
    "impostor": "Impostor (1) or crewmate (0)",
    "tasks_total": "Tasks assigned", "tasks_done": "Tasks completed",
    "tp": "Task performance (weighted share of tasks completed)",
    "psr": "Planning success (share of tasks reached)",
    "pp": "Planning performance (mean efficiency of completed tasks, from the start)",
    "pp_leg": "Planning performance per leg (from the previous completion)",
    "brier": "Trust Brier score (0 best, 0.33 random)",
    "volatility": "Trust volatility (mean change between meetings)",
    "votes": "Votes cast (not skips)", "skips": "Skipped votes",
    "votes_correct": "Votes for an impostor",
    "detection_accuracy": "Detection accuracy (share of votes for an impostor)",
    "steps": "Decisions made",
    **{p: f"Decisions flagged: {label}" for p, label in _PATTERN_LABELS.items()},
    **{f"{p}_rate": f"Share of decisions flagged: {label}" for p, label in _PATTERN_LABELS.items()},
    "failed_steps": "Decisions flagged by any failure pattern",
    "failure_any": "Share of decisions flagged by any failure pattern",
    "failure_passive": "Passive failure (NOOP stall + task fixation shares)",
    "failure_active": "Active failure (sum of the other failure shares)",
    # game
    "end_step": "Env step the game ended", "crew_won": "Crew won",
    "players": "Players", "impostors": "Impostors",
    "task_completion": "Task completion (share of all crew tasks)",
    **{f"crew_{m}": f"Crew mean: {label}" for m, label in (
        ("tp", "task performance"), ("psr", "planning success"), ("pp", "planning performance"),
        ("pp_leg", "planning performance per leg"), ("brier", "trust Brier score"),
        ("volatility", "trust volatility"))},
    "meetings": "Meetings held",
    "crew_votes": "Crew votes (not skips)", "crew_correct": "Crew votes for an impostor",
    "detection_baseline": "Detection accuracy of random voting",
    **{f"{c}_votes": f"Crew votes: {label}" for c, label in _CLASS_LABELS.items()},
    **{f"{c}_correct": f"Crew votes for an impostor: {label}"
       for c, label in _CLASS_LABELS.items()},
    **{f"{c}_share": f"Share of crew votes: {label}" for c, label in _CLASS_LABELS.items()},
    **{f"{c}_accuracy": f"Detection accuracy: {label}" for c, label in _CLASS_LABELS.items()},
    "imp_votes": "Impostor votes (not skips)",
    **{f"{c}_votes": f"Impostor votes: {label}" for c, label in _IMPOSTOR_CLASS_LABELS.items()},
    **{f"{c}_share": f"Share of impostor votes: {label}"
       for c, label in _IMPOSTOR_CLASS_LABELS.items()},
    "win_lean_end": "Crew win-lean at the end (0 impostors ahead .. 1 crew ahead)",
    "win_lean_mean": "Crew win-lean, mean over the game",
    # aggregates
    "games": "Games", "counted": "Games counted (not void)", "void": "Void (aborted, not counted)",
    "seat_games": "Seat-games counted", "crew_win_rate": "Crew wins (share of games)",
    "mean_end_step": "Mean game length (env steps)",
}


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def seat_summary(seat: int, impostors: frozenset[int], steps: Sequence[StepRecord],
                 tasks: Sequence[TaskRecord], votes: Sequence[VoteRecord]) -> dict[str, Any]:
    """One seat's numbers. Trust metrics and detection accuracy are for crewmates only (None for
    an impostor, who knows every role: its trust is a tactic, not a belief)."""
    crew = seat not in impostors
    mine = [v for v in votes if v.voter == seat]
    flagged = detect_failures(steps)
    rates = failure_rates(flagged, len(steps))
    totals = failure_totals(rates)
    failed = {s for name in PATTERNS for s in flagged[name]}
    targets = [v.target for v in mine if v.target is not None]
    return {
        "impostor": int(not crew),
        "tasks_total": len(tasks), "tasks_done": sum(_done(t) for t in tasks),
        "tp": task_performance(tasks), "psr": planning_success_rate(tasks),
        "pp": planning_performance(tasks), "pp_leg": planning_performance(tasks, per_leg=True),
        "brier": brier_score(votes, seat, impostors) if crew else None,
        "volatility": trust_volatility(votes, seat) if crew else None,
        "votes": len(targets), "skips": len(mine) - len(targets),
        "votes_correct": sum(t in impostors for t in targets) if crew else None,
        "detection_accuracy": detection_accuracy(votes, seat, impostors) if crew else None,
        "steps": len(steps),
        **{name: len(flagged[name]) for name in PATTERNS},
        **{f"{name}_rate": rates[name] for name in PATTERNS},
        "failed_steps": len(failed), "failure_any": _ratio(len(failed), len(steps)),
        "failure_passive": totals["passive"], "failure_active": totals["active"],
    }


def summary(*, players: int, impostors: frozenset[int],
            steps: Mapping[int, Sequence[StepRecord]], tasks: Mapping[int, Sequence[TaskRecord]],
            votes: Sequence[VoteRecord], states: Sequence[StateRecord], end_step: int,
            crew_won: bool) -> dict[str, Any]:
    """One game's numbers, JSON-ready: {"game": {...}, "seats": {"0": {...}, ...}}; keys are
    labelled in LABELS. Seats missing from `steps` / `tasks` had none."""
    seats = {str(s): seat_summary(s, impostors, steps.get(s, ()), tasks.get(s, ()), votes)
             for s in range(players)}
    crew = [seats[str(s)] for s in range(players) if s not in impostors]
    counts = vote_class_counts(votes, impostors)
    all_tasks = [t for s in range(players) if s not in impostors for t in tasks.get(s, ())]
    curve = win_lean(states, votes, impostors, end_step, crew_won)
    game = {
        "end_step": end_step, "crew_won": int(crew_won),
        "players": players, "impostors": len(impostors),
        "tasks_total": len(all_tasks), "tasks_done": sum(_done(t) for t in all_tasks),
        "task_completion": _ratio(sum(_done(t) for t in all_tasks), len(all_tasks)),
        **{f"crew_{m}": _mean(s[m] for s in crew)
           for m in _CREW_MEANS},
        "meetings": len({v.meeting for v in votes}),
        "detection_baseline": detection_baseline(players, len(impostors)),
        **counts, **vote_class_shares(counts),
        "win_lean_end": curve[-1][1] if curve else None,
        "win_lean_mean": _mean(p for _, p in curve),
    }
    return {"game": game, "seats": seats}


def _role_block(totals: Totals) -> dict[str, Any]:
    """Means of per-game ratios, and failure shares pooled over every decision."""
    steps = totals.total("steps")
    block: dict[str, Any] = {"seat_games": totals.added, "steps": steps}
    block |= {m: totals.mean(m) for m in _MEANS}
    block |= {f"{p}_rate": _ratio(totals.total(p), steps) for p in PATTERNS}
    block["failure_any"] = _ratio(totals.total("failed_steps"), steps)
    for kind, names in (("passive", PASSIVE), ("active", ACTIVE)):
        block[f"failure_{kind}"] = sum(block[f"{p}_rate"] for p in names) if steps else None
    return block


def aggregate(per_game: Iterable[PerGame], players: int) -> dict[str, Any]:
    """Many games' summaries folded with the project's running sums (engine/aggregate.py; void
    games left out): "overall" with vote classes pooled over all ballots (as the paper's tables
    count votes), "roles" ("crew" / "impostor") and "seats" with means of per-game ratios and
    failure shares pooled over decisions."""
    fold = Fold(players)
    roles = {"crew": Totals(), "impostor": Totals()}
    for metrics in per_game:
        counted = fold.counted
        fold.add(metrics)
        if fold.counted > counted:
            for values in metrics["seats"].values():
                roles["impostor" if values.get("impostor") else "crew"].add(values)
    game = fold.game
    counts = {k: game.total(k) for k in _COUNT_KEYS}
    overall = {
        "games": fold.games, "counted": fold.counted, "void": fold.void,
        "crew_win_rate": game.mean("crew_won"), "mean_end_step": game.mean("end_step"),
        "task_completion": game.mean("task_completion"),
        **{f"crew_{m}": game.mean(f"crew_{m}")
           for m in _CREW_MEANS},
        "detection_baseline": game.mean("detection_baseline"),
        **counts, **vote_class_shares(counts),
        "win_lean_end": game.mean("win_lean_end"), "win_lean_mean": game.mean("win_lean_mean"),
    }
    return {"overall": overall,
            "roles": {role: _role_block(totals) for role, totals in roles.items()},
            "seats": {seat: _role_block(fold.seat(seat)) for seat in map(str, range(players))}}

