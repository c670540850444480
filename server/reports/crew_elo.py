"""The Crew Elo league's report: ratings and win rates per model from the episodes' outcomes.

- Crew Elo (spec §15): the counted episodes as matches (crew model, impostor model, S = 1 if
  the crew won else 0) in schedule order, `server.store.ratings.elo_league` (K = 64, base 1500, 10
  passes); self-play matches leave ratings unchanged, void episodes are left out.
- Crew WR / Imp WR: the share of a model's counted crew (impostor) games its side won,
  self-play included (the model held that side; only Elo cannot learn from it).
- Det acc: its crewmates' votes for an impostor over their non-skip votes, pooled over every
  crew seat it held (each vote weighs the same, as the paper's tables count votes); "—" when
  the stored metrics do not have the votes, or its crewmates never cast one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.socialgrid.league import Episode
from server.reports.tables import share
from server.store.ratings import ELO_BASE, elo_league

Votes = tuple[float, int]  # (votes naming an impostor, non-skip votes)


@dataclass(frozen=True)
class Outcome:
    """A scheduled episode and what the store says of it."""

    episode: Episode
    crew_won: bool | None  # None: no counted game (void, or never played)
    crew_votes: Votes | None = None  # of the crew seats; None: not in the metrics


@dataclass
class Standing:
    model: str
    crew_elo: float = ELO_BASE
    games: int = 0
    crew_games: int = 0
    crew_wins: int = 0
    impostor_games: int = 0
    impostor_wins: int = 0
    votes: list[Votes] = field(default_factory=list)

    @property
    def crew_wr(self) -> float | None:
        return self.crew_wins / self.crew_games if self.crew_games else None

    @property
    def impostor_wr(self) -> float | None:
        return self.impostor_wins / self.impostor_games if self.impostor_games else None

    @property
    def detection_accuracy(self) -> float | None:
        cast = sum(n for _, n in self.votes)
        return sum(c for c, _ in self.votes) / cast if cast else None

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "crew_elo": self.crew_elo, "crew_wr": self.crew_wr,
                "impostor_wr": self.impostor_wr, "detection_accuracy": self.detection_accuracy,
                "games": self.games, "crew_games": self.crew_games, "crew_wins": self.crew_wins,
                "impostor_games": self.impostor_games, "impostor_wins": self.impostor_wins}


def crew_votes(seats: Mapping[str, Mapping[str, Any]], crew: Sequence[int]) -> Votes | None:
    """The crew seats' (votes for an impostor, non-skip votes) from a game's seat metrics, or
    None when the metrics do not have them. Reads "non_skip_votes" or "votes" (the count) with
    "votes_correct", else the count with "detection_accuracy" (None when it cast none)."""
    correct, cast = 0.0, 0
    for seat in crew:
        m = seats.get(str(seat), {})
        n = m.get("non_skip_votes", m.get("votes"))
        if not isinstance(n, int) or "detection_accuracy" not in m:
            return None
        hits = m.get("votes_correct")
        if hits is None:
            hits = (m["detection_accuracy"] or 0.0) * n
        correct, cast = correct + hits, cast + n
    return correct, cast


def matches(outcomes: Sequence[Outcome]) -> list[tuple[str, str, float]]:
    """The counted episodes as Elo matches, in schedule order."""
    return [(o.episode.crew, o.episode.impostor, float(o.crew_won))
            for o in outcomes if o.crew_won is not None]


def standings(models: Sequence[str], outcomes: Sequence[Outcome]) -> list[Standing]:
    """One row per model, best Crew Elo first (ties in --models order)."""
    rows = {m: Standing(m) for m in models}
    for model, rating in elo_league(matches(outcomes)).items():
        rows[model].crew_elo = rating
    for o in outcomes:
        if o.crew_won is None:
            continue
        crew, impostor = rows[o.episode.crew], rows[o.episode.impostor]
        crew.games += 1
        impostor.games += not o.episode.self_play
        crew.crew_games += 1
        crew.crew_wins += o.crew_won
        impostor.impostor_games += 1
        impostor.impostor_wins += not o.crew_won
        if o.crew_votes is not None:
            crew.votes.append(o.crew_votes)
    return sorted(rows.values(), key=lambda r: -r.crew_elo)


@dataclass
class Report:
    title: str  # "SocialGrid Crew Elo league, league-10x10"
    models: list[str]
    outcomes: list[Outcome]
    played: int  # episodes played by this run
    wall: float  # seconds

    @property
    def void(self) -> int:
        return sum(o.crew_won is None for o in self.outcomes)

    @property
    def counted(self) -> int:
        return len(self.outcomes) - self.void

    def render(self) -> str:
        m = len(self.models)
        width = max([32, *map(len, self.models)])  # a long spec is printed whole
        lines = [f"{self.title}: {m} model{'s' * (m != 1)}, {m * m} pair{'s' * (m != 1)}",
                 f"{'model':{width}} {'Crew Elo':>8} {'Crew WR':>7} {'Imp WR':>7} "
                 f"{'Det acc':>7} {'games':>5}"]
        for r in standings(self.models, self.outcomes):
            lines.append(f"{r.model:{width}} {r.crew_elo:>8.0f} {share(r.crew_wr):>7} "
                         f"{share(r.impostor_wr):>7} {share(r.detection_accuracy):>7} "
                         f"{r.games:>5}")
        total = len(self.outcomes)
        lines.append(f"{total} episodes: {total - self.void} counted, {self.void} void (left "
                     f"out); {self.played} played now, {total - self.played} from the store; "
                     f"wall time {self.wall:.1f} s")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "models": self.models, "episodes": len(self.outcomes),
                "counted": self.counted, "void": self.void,
                "played": self.played, "wall_time_s": round(self.wall, 3),
                "standings": [r.to_json() for r in standings(self.models, self.outcomes)],
                "matches": matches(self.outcomes)}
