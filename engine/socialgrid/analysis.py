"""SocialGrid metrics and analyses (spec §12-§14; paper §2.4, App. C, E, J, L) as pure functions
over plain records: one game's `summary`, many games' `aggregate`, and a plain-English label for
every key they emit (`LABELS`). The rules turn a game record into the records; nothing here
knows about boards, prompts or the server.

The pieces live in their own modules and are re-exported here: the records in records.py,
the planning metrics in planning.py, trust, detection and vote-reasoning classes in trust.py,
the win-lean curve in winlean.py, and the failure detectors in detectors.py.

Every choice the paper leaves open is written down in docs/rules/socialgrid.md, "Metrics and
failure analysis"; the docstrings repeat the formula and the reason in short.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
from engine.socialgrid.planning import (
    leg_efficiency,
    planning_efficiency,
    planning_performance,
    planning_success_rate,
    task_done,
    task_performance,
)
from engine.socialgrid.records import Pose, StateRecord, StepRecord, TaskRecord, VoteRecord
from engine.socialgrid.trust import (
    BRIER_HALF,
    BRIER_RANDOM,
    COUNT_KEYS,
    CREW_CLASSES,
    HEURISTIC,
    IMPOSTOR_CLASSES,
    OVER_TRUST,
    SCARCITY,
    STRONG,
    THOUGHT_CLASSES,
    brier_score,
    detection_accuracy,
    detection_baseline,
    impostor_vote_class,
    over_trusts,
    pair_brier,
    pair_volatility,
    ratio,
    thought_class,
    trust_series,
    trust_volatility,
    vote_class_counts,
    vote_class_shares,
)
from engine.socialgrid.winlean import (
    ALPHA,
    W_ALIVE,
    W_DETECT,
    W_TASK,
    detection_signal,
    p_crew,
    win_lean,
)

__all__ = [
    # records
    "Pose", "StateRecord", "StepRecord", "TaskRecord", "VoteRecord",
    # planning
    "leg_efficiency", "planning_efficiency", "planning_performance", "planning_success_rate",
    "task_performance",
    # trust, detection and vote reasoning
    "BRIER_HALF", "BRIER_RANDOM", "CREW_CLASSES", "HEURISTIC", "IMPOSTOR_CLASSES", "OVER_TRUST",
    "SCARCITY", "STRONG", "THOUGHT_CLASSES", "brier_score", "detection_accuracy",
    "detection_baseline", "impostor_vote_class", "over_trusts", "pair_brier", "pair_volatility",
    "thought_class", "trust_series", "trust_volatility", "vote_class_counts", "vote_class_shares",
    # win-lean
    "ALPHA", "W_ALIVE", "W_DETECT", "W_TASK", "detection_signal", "p_crew", "win_lean",
    # one game and many
    "LABELS", "aggregate", "seat_summary", "summary",
]


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
        "tasks_total": len(tasks), "tasks_done": sum(task_done(t) for t in tasks),
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
        "failed_steps": len(failed), "failure_any": ratio(len(failed), len(steps)),
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
        "tasks_total": len(all_tasks), "tasks_done": sum(task_done(t) for t in all_tasks),
        "task_completion": ratio(sum(task_done(t) for t in all_tasks), len(all_tasks)),
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
    block |= {f"{p}_rate": ratio(totals.total(p), steps) for p in PATTERNS}
    block["failure_any"] = ratio(totals.total("failed_steps"), steps)
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
    counts = {k: game.total(k) for k in COUNT_KEYS}
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
