"""Secret Mafia metrics from a game record: per seat its role, outcome, survival, votes (and how
many hit the Mafia), night work (saves, investigations that found Mafia), speeches and the
shared invalid-move attribution; per game the winner, length, kills, saves and eliminations,
and the termination depth, counted in phases: the nights and days over before the one of the
first fatal error (an elimination for invalid moves), as a share of EXPECTED_PHASES. The
aggregate folds them per seat index, per role (win rates with the role advantage) and overall,
with the shared error statistics (engine/attribution.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame, Totals, with_role_totals
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts
from engine.secret_mafia.config import DEAL, DOCTOR, MAFIA_SIDE, PLAYERS

ROLES = tuple(dict.fromkeys(DEAL))
# The expected length of a six-seat game, in phases: night 1, day 1, night 2, day 2 — the
# longest game in which every night kills and every day vote puts someone out (a Doctor's save
# or a day without an elimination makes it longer). See docs/rules/secret-mafia.md.
EXPECTED_PHASES = 4
PHASES = ("night_started", "day_started")

LABELS = {
    **OUTCOME_LABELS,
    **errs.ATTRIBUTION_LABELS,
    **errs.ERROR_LABELS,
    "role": "Role",
    "mafia": "Played for the Mafia",
    "survived": "Alive at the end",
    "days_survived": "Days alive at daybreak",
    "killed_at_night": "Killed by the Mafia",
    "voted_out": "Voted out",
    "eliminated_by_invalid": "Out for invalid moves",
    "votes_cast": "Day votes cast",
    "votes_against_mafia": "Day votes against a Mafia member",
    "night_votes": "Night votes cast (Mafia)",
    "protections": "Nights protecting someone (Doctor)",
    "saves": "Kills prevented (Doctor)",
    "investigations": "Investigations (Detective)",
    "mafia_found": "Investigations that found a Mafia member (Detective)",
    "speeches": "Speeches made (not empty)",
    "chat_chars": "Characters spoken",
    # game level
    "mafia_won": "The Mafia won",
    "village_won": "The village won",
    "days": "Days played",
    "kills": "Night kills",
    "doctor_saves": "Kills prevented by the Doctor",
    "vote_eliminations": "Players voted out",
    "mafia_voted_out": "Mafia members voted out",
    "invalid_eliminations": "Players out for invalid moves",
    "void": "Void (aborted, not counted)",
    "forfeit_depth": "Share of the expected nights and days over before a fatal error",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "mafia_win_rate": "Mafia wins (share of games)",
    "mean_days": "Mean days per game",
    "median_forfeit_depth": "Median share of the expected nights and days before a fatal error",
    "survival_rate": "Alive at the end (share of games)",
    "mean_reward": "Mean reward",
    "vote_accuracy": "Day votes against a Mafia member (share of votes)",
}

_SEAT_ZERO = ("days_survived", "killed_at_night", "voted_out", "votes_cast",
              "votes_against_mafia", "night_votes", "protections", "saves", "investigations",
              "mafia_found", "speeches", "chat_chars")


def game_metrics(record: GameRecord) -> dict[str, Any]:
    players = record.players
    roles = [r["name"] for r in (record.setup.get("roles") or [])]
    sides = [r["side"] for r in (record.setup.get("roles") or [])]
    if len(roles) != players and record.result is not None and record.result.roles:
        roles, sides = list(record.result.roles), list(record.result.sides)
    mafia = {s for s in range(players) if s < len(sides) and sides[s] == MAFIA_SIDE}
    doctor = roles.index(DOCTOR) if DOCTOR in roles else None
    seats = {s: dict.fromkeys(_SEAT_ZERO, 0) for s in range(players)}
    alive = set(range(players))
    game = {"days": 0, "kills": 0, "doctor_saves": 0, "vote_eliminations": 0,
            "mafia_voted_out": 0, "invalid_eliminations": 0}
    for e in record.events:
        d = e.data
        if e.type == "day_started":
            game["days"] = d["day"]
            for s in alive:
                seats[s]["days_survived"] += 1
        elif e.type == "night_resolved":
            if d["saved"] and doctor is not None:
                game["doctor_saves"] += 1
                seats[doctor]["saves"] += 1
            if d["killed"] is not None:
                game["kills"] += 1
                seats[d["killed"]]["killed_at_night"] = 1
                alive.discard(d["killed"])
        elif e.type == "protected" and d["target"] is not None:
            seats[d["seat"]]["protections"] += 1
        elif e.type == "investigated" and d["target"] is not None:
            seats[d["seat"]]["investigations"] += 1
            seats[d["seat"]]["mafia_found"] += int(bool(d["mafia"]))
        elif e.type == "mafia_vote" and d["target"] is not None:
            seats[d["seat"]]["night_votes"] += 1
        elif e.type == "vote" and d["target"] is not None:
            seats[d["seat"]]["votes_cast"] += 1
            seats[d["seat"]]["votes_against_mafia"] += int(d["target"] in mafia)
        elif e.type == "chat" and d["text"]:
            seats[d["seat"]]["speeches"] += 1
            seats[d["seat"]]["chat_chars"] += len(d["text"])
        elif e.type == "vote_result" and d["eliminated"] is not None:
            game["vote_eliminations"] += 1
            game["mafia_voted_out"] += int(d["eliminated"] in mafia)
            seats[d["eliminated"]]["voted_out"] = 1
            alive.discard(d["eliminated"])
        elif e.type == "eliminated":
            alive.discard(d["seat"])
    attribution = errs.error_attribution(record)
    out_invalid = {a.seat for a in record.actions if a.outcome == "invalid" and a.fatal}
    game["invalid_eliminations"] = len(out_invalid)
    result = record.result
    void = result is None or result.void
    winners = set(() if void else result.winners)  # type: ignore[union-attr]
    mafia_won = bool(winners) and winners <= mafia
    game.update({"mafia_won": int(mafia_won), "village_won": int(bool(winners) and not mafia_won),
                 "void": int(void),
                 # Termination depth (§10): phases over before the first fatal error's phase / 4.
                 "forfeit_depth": errs.termination_depth(
                     record, EXPECTED_PHASES,
                     lambda fatal: errs.events_before(record, fatal, *PHASES) - 1)})
    per_seat: dict[str, dict[str, Any]] = {}
    for s in range(players):
        per_seat[str(s)] = {
            "role": roles[s] if s < len(roles) else "",
            "mafia": int(s in mafia),
            "reward": 0.0 if result is None or void else float(result.rewards.get(s, 0.0)),
            **outcome_counts(result, s),
            "survived": int(s in alive and s not in out_invalid),
            "eliminated_by_invalid": int(s in out_invalid),
            **seats[s],
            **attribution[str(s)],
        }
    return {"game": game, "seats": per_seat}


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """Per seat index, per role and overall; void games left out. One pass, running sums."""
    fold = Fold(PLAYERS, medians=errs.MEDIANS)
    by_role = {role: Totals() for role in ROLES}

    fold.add_all(with_role_totals(per_game, by_role))
    errors, seat_errors = errs.error_statistics(fold, PLAYERS)
    seats = {}
    for s in range(PLAYERS):
        t = fold.seat(str(s))
        seats[str(s)] = {**{k: t.total(k) for k in ("reward", "win", "draw", "loss")},
                         "mean_reward": fold.per_counted(t.total("reward")),
                         **seat_errors[str(s)]}
    wins = errs.role_statistics({role: t.total("win") for role, t in by_role.items()},
                                {role: t.added for role, t in by_role.items()})
    roles = {role: {**wins[role], **_role_block(t)} for role, t in by_role.items()}
    overall = {"games": fold.games, "counted": fold.counted, "void": fold.void,
               "mafia_win_rate": fold.game.mean("mafia_won"),
               "mean_days": fold.game.mean("days"),
               "kills": fold.game.total("kills"), "doctor_saves": fold.game.total("doctor_saves"),
               "invalid_eliminations": fold.game.total("invalid_eliminations"), **errors}
    return {"overall": overall, "roles": roles, "seats": seats}


def _role_block(t: Totals) -> dict[str, Any]:
    """What a role's seats did, beside its win rate: survival, reward, votes, night work and
    errors (the games in which a seat of the role made an invalid move)."""
    n = t.added
    votes = t.total("votes_cast")
    return {"survival_rate": t.total("survived") / n if n else None,
            "mean_reward": t.mean("reward"),
            "vote_accuracy": t.total("votes_against_mafia") / votes if votes else None,
            "saves": t.total("saves"), "mafia_found": t.total("mafia_found"),
            "invalid_caused": t.total("invalid_caused"),
            "games_caused": t.positive("invalid_caused")}
