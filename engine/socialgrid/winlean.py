"""SocialGrid's win-lean curve (paper App. L): the crew's chance of winning after every env
step, from task completion, the living crewmates and impostors, and the trust crewmates gave
impostors at the latest meeting."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

from engine.socialgrid.records import StateRecord, VoteRecord

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
