"""SocialGrid metrics from a game record: the record is read into the plain records of
engine/socialgrid/analysis.py (each seat's steps, tasks, ballots, and the state after every
step), which computes the paper's numbers; beside them each seat's reward, outcome and kills.

The optimal lengths of PE (spec §12) come from a Planning Oracle on the map the game revealed
(`setup.map`), with the doors as they were when each leg began."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.aggregate import Fold, PerGame
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts
from engine.socialgrid import analysis
from engine.socialgrid.analysis import StateRecord, StepRecord, TaskRecord, VoteRecord
from engine.socialgrid.board import Board, Pos
from engine.socialgrid.config import CREW, MAX_PLAYERS
from engine.socialgrid.moves import Pose, front
from engine.socialgrid.oracle import INF, Oracle
from engine.socialgrid.records import ballot_votes

LABELS = {
    **analysis.LABELS,
    **OUTCOME_LABELS,
    # Not the outcome's -1/0/+1: the env's own points summed over the game (spec §18).
    "reward": "Reward (env points: tasks, kills, votes, steps)",
    "kills": "Kills",
    "ejections": "Players ejected",
    "void": "Void (aborted, not counted)",
    "impostor_win_rate": "Impostor wins (share of games)",
    "impostors_won": "Impostors won",
    "mean_reward": "Mean reward",
}


class _Replay:
    """The record read once, in order: per seat its steps and where it stood, the doors over
    time, task completions, kills and departures, and the ballots."""

    def __init__(self, record: GameRecord) -> None:
        setup = record.setup or {}
        self.players = record.players
        self.impostors = frozenset(setup.get("impostors") or ())
        self.tasks = {int(s): tasks for s, tasks in (setup.get("tasks") or {}).items()}
        self.steps: dict[int, list[StepRecord]] = {s: [] for s in range(record.players)}
        self.votes: list[VoteRecord] = []
        self.states: list[StateRecord] = []
        self.kills = [0] * record.players
        self.ejections = 0
        self.end_step = 0
        self.poses: dict[int, dict[int, Pose]] = {}  # step -> seat -> pose after it
        self.doors_at: dict[int, frozenset[Pos]] = {}  # step -> doors closed after it
        spawns = setup.get("spawns") or []
        self.start = {s: Pose(*p) for s, p in enumerate(spawns)}
        self.board, closed = _board(setup, record.config)
        self.closed0 = closed
        alive = set(range(record.players))
        done = 0
        total = sum(len(t) for t in self.tasks.values())
        for e in record.events:
            if e.type == "trace":
                step = e.data["step"]
                for seat, action, before, after, entry in _trace_rows(e.data["seats"]):
                    self.steps[seat].append(StepRecord(
                        step, action, tuple(before), tuple(after),
                        bool(entry.get("progressed")), entry.get("completed"),
                        tuple(entry["door"]) if entry.get("door") else None,
                        bool(entry.get("wait"))))
                    self.poses.setdefault(step, {})[seat] = after
                    done += entry.get("completed") is not None
                    if entry.get("door"):
                        closed = closed ^ {tuple(entry["door"])}
                self.doors_at[step] = closed
                self.end_step = step + 1
                self.states.append(self._state(step, done, total, alive))
            elif e.type == "kill":
                self.kills[e.data["killer"]] += 1
                alive.discard(e.data["victim"])
            elif e.type == "player_left":
                alive.discard(e.data["seat"])
            elif e.type == "vote_result" and e.data.get("ejected") is not None:
                self.ejections += 1
                alive.discard(e.data["ejected"])
            elif e.type == "ballots":
                self.votes += ballot_votes(e.data)

    def _state(self, step: int, done: int, total: int, alive: set[int]) -> StateRecord:
        crew = sum(1 for s in alive if s not in self.impostors)
        return StateRecord(step, done, total, crew, len(alive) - crew, frozenset(alive))

    def pose_at(self, seat: int, step: int | None) -> Pose | None:
        """Where `seat` stood after `step` (None: at the start)."""
        if step is None:
            return self.start.get(seat)
        return self.poses.get(step, {}).get(seat)

    def task_records(self, seat: int, oracle: Oracle | None) -> list[TaskRecord]:
        """The seat's tasks with when it first faced each station, when it finished each, and
        the oracle's shortest lengths from the start and from the start of each leg."""
        steps = self.steps[seat]
        finished = {s.completed: s.step for s in steps if s.completed}
        legs = sorted(finished.values())
        records = []
        for task in self.tasks.get(seat, []):
            station = tuple(task["station"])
            required = task["steps_required"]
            completed = finished.get(task["name"])
            reached = next((s.step for s in steps if front(Pose(*s.after)) == station), None)
            if reached is None and completed is not None:
                reached = completed
            earlier = [c for c in legs if completed is None or c < completed]
            leg_start = earlier[-1] if earlier else None
            records.append(TaskRecord(
                task["name"], task["kind"], required, reached_step=reached,
                completed_step=completed,
                l_opt=self._length(oracle, seat, None, station, required),
                leg_start_step=leg_start if leg_start is not None else 0,
                l_opt_leg=self._length(oracle, seat, leg_start, station, required)))
        return records

    def _length(self, oracle: Oracle | None, seat: int, step: int | None, station: Pos,
                required: int) -> float:
        pose = self.pose_at(seat, step)
        if oracle is None or pose is None:
            return 0.0
        closed = self.closed0 if step is None else self.doors_at.get(step, self.closed0)
        distance = oracle.distance(pose, station, closed)
        return 0.0 if distance == INF else distance + required


def _trace_rows(seats: Any) -> Iterable[tuple[int, int, Pose, Pose, Mapping[str, Any]]]:
    """(seat, action, pose before, pose after, what else it did) of a trace event: compact rows
    (rules version 2) or, in older records, a dict per seat."""
    if isinstance(seats, Mapping):
        for key, entry in seats.items():
            before = Pose(*entry["before"])
            yield (int(key), entry["action"], before,
                   Pose(*entry["after"]) if entry.get("after") else before, entry)
        return
    for row in seats:
        yield row[0], row[1], Pose(*row[2:5]), Pose(*row[5:8]), row[8] if len(row) > 8 else {}


def _board(setup: Mapping[str, Any], config: Mapping[str, Any]) -> tuple[Board | None,
                                                                         frozenset[Pos]]:
    rows = setup.get("map")
    if not rows:
        return None, frozenset()
    return Board.parse("\n".join(rows), room_size=config.get("room_size"),
                       rows=config.get("rows", 1), cols=config.get("cols", 1))


def game_metrics(record: GameRecord) -> dict[str, Any]:
    result = record.result
    void = result is None or result.void
    replay = _Replay(record)
    oracle = Oracle(replay.board) if replay.board is not None else None
    crew_won = (not void and bool(result.winners)  # type: ignore[union-attr]
                and result.sides[result.winners[0]] == CREW)  # type: ignore[union-attr]
    impostors_won = not void and bool(result.winners) and not crew_won  # type: ignore[union-attr]
    metrics = analysis.summary(
        players=record.players, impostors=replay.impostors, steps=replay.steps,
        tasks={s: replay.task_records(s, oracle) for s in replay.tasks},
        votes=replay.votes, states=replay.states, end_step=replay.end_step, crew_won=crew_won)
    for s in range(record.players):
        metrics["seats"][str(s)].update({
            "reward": 0.0 if void else float(result.rewards.get(s, 0.0)),  # type: ignore[union-attr]
            **outcome_counts(result, s), "kills": replay.kills[s]})
    metrics["game"].update({"impostors_won": int(impostors_won),
                            "ejections": replay.ejections, "void": int(void)})
    return metrics


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """The paper's numbers over many games (analysis.aggregate), with outcomes and rewards per
    seat; void games are left out. One pass over `per_game`."""
    fold = Fold(MAX_PLAYERS)

    def both() -> Iterable[PerGame]:  # one pass feeds both folds
        for metrics in per_game:
            fold.add(metrics)
            yield metrics

    folded = analysis.aggregate(both(), MAX_PLAYERS)
    folded["overall"]["impostor_win_rate"] = fold.game.mean("impostors_won")
    seats = {}
    for seat, block in folded["seats"].items():
        if not block.get("seat_games"):
            continue
        totals = fold.seat(seat)
        seats[seat] = {**block, **{k: totals.total(k) for k in ("reward", "win", "draw",
                                                                 "loss", "kills")},
                       "mean_reward": fold.per_counted(totals.total("reward"))}
    folded["seats"] = seats
    return folded
