"""The MG-Ref offline tournament's schedule (MindGames spec §9, the paper's Appendix J): per env
the smallest factorial design that balances the candidate's seats and roles and rotates the
references through every other seat.

With R references (the paper's 3 per Generalization env, 4 for Secret Mafia):
- Colonel Blotto: each reference as the opponent x 2 candidate seats x 5 replicates (30);
- IPD: each 2-reference subset x 3 candidate seats x 2 orders of the other seats x 2
  replicates (36);
- Codenames: 4 candidate roles x each reference as teammate x 3 replicates, the opposing team
  rotating through the references with the replicate (36);
- Secret Mafia: 4 duplication modes (one per reference, which sits twice) x 6 candidate seats x
  4 replicates (96); the five other seats take the references rotated by mode and replicate,
  then the duplicated one, so every reference sits in every seat equally often (exactly so with
  the paper's 4 references; other pool sizes cycle the pool); roles are dealt by the env from
  the game's seed.
Game k of an env (in the order above) is played with seed base + k, the bases 10,000 / 20,000 /
30,000 / 40,000; `replicates` multiplies every design's replicate count (the starter kit's
replicate_multiplier).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

BLOTTO, IPD, CODENAMES, MAFIA = "colonel-blotto", "three-player-ipd", "codenames", "secret-mafia"
ENVS = (BLOTTO, IPD, CODENAMES, MAFIA)  # the paper's order
SEED_BASES = {BLOTTO: 10_000, IPD: 20_000, CODENAMES: 30_000, MAFIA: 40_000}
REPLICATES = {BLOTTO: 5, IPD: 2, CODENAMES: 3, MAFIA: 4}
MIN_REFS = {BLOTTO: 1, IPD: 2, CODENAMES: 1, MAFIA: 1}
PAPER_REFS = {BLOTTO: 3, IPD: 3, CODENAMES: 3, MAFIA: 4}  # the sizes of the paper's pools
TRACKS = {"Generalization": (BLOTTO, IPD, CODENAMES), "Social Deduction": (MAFIA,)}
MAFIA_SEATS = 6
TEAMMATE = {0: 1, 1: 0, 2: 3, 3: 2}  # Codenames seats: red spymaster, operative, blue ...


@dataclass(frozen=True)
class Scheduled:
    """Game k of an env: a spec per seat, the candidate's seat, and the design cell."""

    env: str
    k: int
    seed: int
    seats: tuple[str, ...]
    candidate_seat: int
    cell: str


def schedule(env: str, candidate: str, refs: Sequence[str], replicates: int = 1
             ) -> list[Scheduled]:
    design = {BLOTTO: _blotto, IPD: _ipd, CODENAMES: _codenames, MAFIA: _mafia}[env]
    reps = REPLICATES[env] * replicates
    return [Scheduled(env, k, SEED_BASES[env] + k, tuple(seats), seat, cell)
            for k, (seats, seat, cell) in enumerate(design(candidate, list(refs), reps))]


Cell = tuple[list[str], int, str]  # (spec per seat, the candidate's seat, design cell)


def _blotto(candidate: str, refs: list[str], reps: int) -> Iterator[Cell]:
    for opponent in refs:
        for seat in (0, 1):
            for rep in range(reps):
                seats = [candidate, opponent] if seat == 0 else [opponent, candidate]
                yield seats, seat, f"opponent {opponent}, seat {seat}, replicate {rep}"


def _ipd(candidate: str, refs: list[str], reps: int) -> Iterator[Cell]:
    for pair in combinations(refs, 2):
        for seat in range(3):
            for order in (0, 1):
                others = list(pair) if order == 0 else list(reversed(pair))
                for rep in range(reps):
                    seats = others[:seat] + [candidate] + others[seat:]
                    yield seats, seat, (f"opponents {' + '.join(pair)}, seat {seat}, "
                                        f"order {order}, replicate {rep}")


def _codenames(candidate: str, refs: list[str], reps: int) -> Iterator[Cell]:
    n = len(refs)
    for seat in range(4):
        for i, mate in enumerate(refs):
            for rep in range(reps):
                seats = [""] * 4
                seats[seat], seats[TEAMMATE[seat]] = candidate, mate
                other = [s for s in range(4) if s not in (seat, TEAMMATE[seat])]
                seats[other[0]] = refs[(i + 1 + rep) % n]
                seats[other[1]] = refs[(i + 2 + rep) % n]
                yield seats, seat, f"seat {seat}, teammate {mate}, replicate {rep}"


def _mafia(candidate: str, refs: list[str], reps: int) -> Iterator[Cell]:
    n = len(refs)
    for x, twice in enumerate(refs):
        for seat in range(MAFIA_SEATS):
            for rep in range(reps):
                # The references rotated by mode + replicate, then the duplicated one: over
                # the modes and replicates each takes every other seat equally often.
                rotated = [refs[(x + rep + j) % n] for j in range(n)]
                others = (rotated * MAFIA_SEATS)[:MAFIA_SEATS - 2] + [twice]
                seats = others[:seat] + [candidate] + others[seat:]
                yield seats, seat, f"{twice} twice, seat {seat}, replicate {rep}"
