"""The MG-Ref report (MindGames spec §9, Appendix J.2): per env and in aggregate, the candidate's
TrueSkill posterior, win rate with its 95% Wilson interval, cumulative reward, role-conditioned
win rates with realised counts, and the error-attribution columns; no single score above the
others.

- TrueSkill: the candidate starts at the competition prior N(25, 25/3) and is updated game by
  game in schedule order (k), each game rated between its sides by reward as every rated game
  is (server/store/ratings.py). Every other seat is a player of its own held at its reference's
  frozen prior and never updated, so a reference sitting twice (Secret Mafia) or on both teams
  (Codenames) is two frozen players.
- Win rate: wins over counted games (a draw, the IPD's middle place included, is not a win).
- Attribution: the paper's Table 5 columns count games: Clean (nobody erred), Caused (the
  candidate made an invalid move), Witnessed (another seat did), Self-Forf. / Opp-Forf. (the
  candidate's / another seat's invalid move forfeited or eliminated it).
- The error-survival warning (§10): the env's games erred more than 30% of the time and games
  with a forfeit ended before half their length (engine/evaluation.py).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.attribution import DEPTH, GAME_COUNTS
from engine.core import Env
from engine.evaluation import error_survival_warning, role_advantage, wilson_interval
from engine.mgref_schedule import TRACKS, Scheduled
from engine.outcome import seat_outcome
from engine.records import Role
from server.reports.league import StoredGame, run_line
from server.reports.tables import share, with_interval
from server.store import ratings

CANDIDATE = "candidate"
ATTRIBUTION = (("clean", "Clean"), ("caused", "Caused"), ("witnessed", "Witnessed"),
               ("self_forfeit", "Self-Forf."), ("opponent_forfeit", "Opp-Forf."))

Prior = tuple[float, float]


@dataclass
class Tally:
    """Counts over a set of the candidate's games (one env, or all of them)."""

    scheduled: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    reward: float = 0.0
    errors: Counter[str] = field(default_factory=Counter)  # attribution column -> games
    erred: int = 0  # games where anyone made an invalid move

    def add(self, outcome: str | None, reward: float, seat: Mapping[str, Any]) -> None:
        self.games += 1
        self.wins += outcome == "win"
        self.draws += outcome == "draw"
        self.losses += outcome == "loss"
        self.reward += reward
        # the per-game count each column's games are those above 0 of (engine/attribution.py)
        flags = {name: seat.get(GAME_COUNTS[f"games_{name}"], 0) > 0 for name, _ in ATTRIBUTION}
        self.errors.update(name for name, hit in flags.items() if hit)
        self.erred += not flags["clean"]

    def merge(self, other: Tally) -> None:
        for name in ("scheduled", "games", "wins", "draws", "losses", "reward", "erred"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors.update(other.errors)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def error_rate(self) -> float | None:
        return self.erred / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        interval = wilson_interval(self.wins, self.games)
        return {"scheduled": self.scheduled, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "win_rate": self.win_rate,
                "win_rate_95": list(interval) if interval else None,
                "cumulative_reward": self.reward, "error_rate": self.error_rate,
                **{name: self.errors[name] for name, _ in ATTRIBUTION}}


@dataclass
class EnvResult:
    env: str
    candidate: str
    refs: dict[str, Prior]  # spec -> frozen prior
    tally: Tally
    rating: Prior
    roles: dict[str, list[int]]  # role -> [wins, games]
    depth: float | None  # median share of the game played before a forfeit

    @property
    def warning(self) -> bool:
        return error_survival_warning(self.tally.error_rate, self.depth)

    def to_json(self) -> dict[str, Any]:
        advantage = role_advantage({r: w for r, (w, _) in self.roles.items()},
                                   {r: n for r, (_, n) in self.roles.items()})
        return {"env": self.env, "candidate": self.candidate,
                "references": {s: {"mu": m, "sigma": sd} for s, (m, sd) in self.refs.items()},
                "mu": self.rating[0], "sigma": self.rating[1], **self.tally.to_json(),
                "roles": {r: {"wins": w, "games": n, "win_rate": w / n if n else None,
                              "advantage": advantage.get(r)}
                          for r, (w, n) in self.roles.items()},
                "termination_depth": self.depth, "error_survival_warning": self.warning}


def role_labels(roles: Sequence[Role]) -> list[str]:
    """A role's name, with its side when the name alone is shared by sides (Codenames'
    "Red Spymaster", as its seats are named)."""
    sides: dict[str, set[str]] = {}
    for r in roles:
        sides.setdefault(r.name, set()).add(r.side)
    return [r.name if len(sides[r.name]) == 1 else f"{r.side} {r.name}".title() for r in roles]


def env_result(env: Env, candidate: str, refs: Mapping[str, Prior],
               games: Sequence[tuple[Scheduled, StoredGame | None]]) -> EnvResult:
    """Fold an env's scheduled games, in schedule order, into its result."""
    config = env.config()
    tally = Tally(scheduled=len(games))
    rating: Prior = (ratings.MU, ratings.SIGMA)
    roles: dict[str, list[int]] = {}
    depths = []
    for match, stored in games:
        if stored is None or stored.result.void:
            continue
        seat = match.candidate_seat
        result = stored.result
        outcome = seat_outcome(result, seat)
        seat_metrics = stored.metrics.get("seats", {}).get(str(seat), {})
        tally.add(outcome, float(result.rewards.get(seat, 0.0)), seat_metrics)
        depth = stored.metrics.get("game", {}).get(DEPTH)
        if depth is not None:
            depths.append(depth)
        players = [CANDIDATE if s == seat else f"{spec}#{s}" for s, spec in
                   enumerate(match.seats)]
        current = {p: refs[match.seats[s]] for s, p in enumerate(players) if p != CANDIDATE}
        changes = ratings.rate("trueskill", result, players, {**current, CANDIDATE: rating})
        if CANDIDATE in changes:
            rating = changes[CANDIDATE][1]
        label = role_labels(env.assign_roles(config, match.seed, len(match.seats)))[seat]
        won = roles.setdefault(label, [0, 0])
        won[0] += outcome == "win"
        won[1] += 1
    depth = statistics.median(depths) if depths else None
    return EnvResult(env.id, candidate, dict(refs), tally, rating, dict(sorted(roles.items())),
                     depth)


@dataclass
class Report:
    results: list[EnvResult]
    played: int  # games played by this run (the others came from the store)
    seconds: float

    @property
    def overall(self) -> Tally:
        total = Tally()
        for r in self.results:
            total.merge(r.tally)
        return total

    @property
    def counted(self) -> int:
        return self.overall.games

    def tracks(self) -> dict[str, float]:
        """Track score: the mean of the per-env mu over the track's envs played (§7)."""
        mus = {r.env: r.rating[0] for r in self.results}
        return {name: sum(mus[e] for e in envs if e in mus) / sum(e in mus for e in envs)
                for name, envs in TRACKS.items() if any(e in mus for e in envs)}

    def to_json(self) -> dict[str, Any]:
        return {"envs": [r.to_json() for r in self.results], "overall": self.overall.to_json(),
                "tracks": self.tracks(), "played_now": self.played,
                "wall_seconds": round(self.seconds, 1)}

    def render(self) -> str:
        header = (f"{'env':<17}{'games':>8} {'mu ± sigma':>13} {'W-D-L':>9} "
                  f"{'win rate [95% CI]':>19} {'reward':>7}"
                  + "".join(f"{label:>11}" for _, label in ATTRIBUTION) + f"{'errors':>8}")
        lines = ["MG-Ref offline tournament", header]
        for r in self.results:
            lines.append(_row(r.env, r.tally, f"{r.rating[0]:.1f} ± {r.rating[1]:.1f}"))
        if len(self.results) > 1:
            lines.append(_row("all", self.overall, ""))
        lines.append("")
        for r in self.results:
            refs = ", ".join(f"{s} {m:.1f} ± {sd:.1f}" for s, (m, sd) in r.refs.items())
            lines.append(f"{r.env}: candidate {r.candidate}; references (frozen) {refs}")
            lines.append("  by role: " + "; ".join(
                f"{role} {w}/{n} won" for role, (w, n) in r.roles.items()) if r.roles
                else "  by role: no counted games")
        tracks = self.tracks()
        if tracks:
            lines.append("Track scores (mean mu): " + "; ".join(
                f"{name} {score:.1f}" for name, score in tracks.items()))
        for r in self.results:
            if r.warning:
                lines.append(
                    f"Warning: {r.env}: {r.tally.error_rate:.0%} of the games had an invalid "
                    f"move and forfeited games ended at {r.depth:.0%} of their length: its "
                    f"rating measures surviving the others' errors as much as skill.")
        total = self.overall
        lines.append(f"{total.games} of {total.scheduled} scheduled games counted; "
                     + run_line(self.played, total.scheduled - self.played, self.seconds))
        return "\n".join(lines)


def _row(name: str, t: Tally, rating: str) -> str:
    rate = with_interval(t.win_rate, wilson_interval(t.wins, t.games), places=0)
    errors = share(t.error_rate, places=0)
    return (f"{name:<17}{t.games:>4}/{t.scheduled:<3} {rating:>13} "
            f"{t.wins:>3}-{t.draws}-{t.losses:<3} {rate:>19} {t.reward:>7.1f}"
            + "".join(f"{t.errors[key]:>11}" for key, _ in ATTRIBUTION) + f"{errors:>8}")
