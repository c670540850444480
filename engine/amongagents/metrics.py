"""AmongAgents metrics from a game record (spec §14): per game the termination type (the
paper's Table 1 counts the share of games ending each way), the winner, length, meetings,
kills, ejections and task completion; per seat its role, outcome, survival, actions by verb
(the paper's persona x action-type counts: COMPLETE, KILL, SPEAK, ...), votes and how many hit
an impostor, and the shared invalid-move attribution. The aggregate gives the shares of each
termination type, win rates by role and the per-role action counts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame, Totals, with_role_totals
from engine.amongagents.config import CREWMATE, IMPOSTOR, IMPOSTOR_SIDE
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts

ENDINGS = ("crew_eliminated", "time_limit", "impostors_eliminated", "tasks_done")  # Table 1
VERBS = ("move", "vent", "kill", "task", "fake", "speak", "monitor", "report", "button",
         "vote")
ROLES = (CREWMATE, IMPOSTOR)

LABELS = {
    **OUTCOME_LABELS,
    **errs.ATTRIBUTION_LABELS,
    **errs.ERROR_LABELS,
    "role": "Role",
    "impostor": "Played as an impostor",
    "survived": "Alive at the end",
    "killed": "Killed by an impostor",
    "ejected": "Ejected by a vote",
    **{f"{v}_actions": f"{v.upper()} actions" for v in VERBS},
    "votes_for_impostor": "Votes for an impostor",
    "tasks_completed": "Tasks completed (crewmates)",
    # game level
    **{f"ended_{e}": f"Ended: {e.replace('_', ' ')}" for e in ENDINGS},
    "impostors_won": "The impostors won",
    "crew_won": "The crew won",
    "timesteps": "Timesteps played",
    "meetings": "Meetings held",
    "kills": "Kills",
    "ejections": "Players ejected",
    "impostors_ejected": "Impostors ejected",
    "task_completion": "Task completion of the living crewmates at the end",
    "void": "Void (aborted, not counted)",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "share_crew_eliminated": "Share of games: crew eliminated",
    "share_time_limit": "Share of games: time limit",
    "share_impostors_eliminated": "Share of games: impostors eliminated",
    "share_tasks_done": "Share of games: all tasks done",
    "impostor_win_rate": "Impostors won (share of games)",
    "mean_timesteps": "Mean timesteps per game",
    "win_rate": "Won (share of this role's seats)",
    "survival_rate": "Alive at the end (share of seats)",
    "mean_reward": "Mean reward",
    "vote_accuracy": "Votes for an impostor (share of votes for a player)",
}

_SEAT_ZERO = ("killed", "ejected", *(f"{v}_actions" for v in VERBS), "votes_for_impostor",
              "tasks_completed")


def game_metrics(record: GameRecord) -> dict[str, Any]:
    players = record.players
    roles = record.setup.get("roles") or []
    if len(roles) == players:
        names, sides = [r["name"] for r in roles], [r["side"] for r in roles]
    elif record.result is not None and record.result.roles:
        names, sides = list(record.result.roles), list(record.result.sides)
    else:
        names, sides = [""] * players, [""] * players
    impostors = {s for s in range(players) if sides[s] == IMPOSTOR_SIDE}
    seats = {s: dict.fromkeys(_SEAT_ZERO, 0) for s in range(players)}
    game: dict[str, Any] = {"timesteps": 0, "meetings": 0, "kills": 0, "ejections": 0,
                            "impostors_ejected": 0, "task_completion": None}
    ending = None
    for e in record.events:
        d = e.data
        kind = e.type
        if kind == "action" and d["seat"] in e.visible_to:  # the actor's own copy
            seats[d["seat"]][f"{d['verb']}_actions"] += 1
            if d["verb"] == "kill":
                game["kills"] += 1
                seats[d["target"]]["killed"] = 1
        elif kind == "task_worked":
            seats[d["seat"]][f"{d['verb']}_actions"] += 1
            if d["verb"] == "task" and d["left"] == 0:
                seats[d["seat"]]["tasks_completed"] += 1
        elif kind == "camera":
            seats[d["seat"]]["monitor_actions"] += 1
        elif kind == "meeting_called":
            seats[d["seat"]][f"{d['kind']}_actions"] += 1
        elif kind == "meeting_started":
            game["meetings"] += 1
        elif kind == "speech":
            seats[d["seat"]]["speak_actions"] += 1
        elif kind == "vote" and not d["skip"] and d["target"] is not None:
            seats[d["seat"]]["vote_actions"] += 1
            seats[d["seat"]]["votes_for_impostor"] += int(d["target"] in impostors)
        elif kind == "vote_result" and d["ejected"] is not None:
            game["ejections"] += 1
            game["impostors_ejected"] += int(d["ejected"] in impostors)
            seats[d["ejected"]]["ejected"] = 1
        elif kind == "game_ended":
            ending = d["ending"]
            game["timesteps"] = d["timestep"]
            game["task_completion"] = d["completion"]
    result = record.result
    void = result is None or result.void
    for e in ENDINGS:
        game[f"ended_{e}"] = int(ending == e and not void)
    winners = set(() if void else result.winners)  # type: ignore[union-attr]
    impostors_won = bool(winners) and winners <= impostors
    game.update({"impostors_won": int(impostors_won),
                 "crew_won": int(bool(winners) and not impostors_won), "void": int(void)})
    attribution = errs.error_attribution(record)
    per_seat: dict[str, dict[str, Any]] = {}
    for s in range(players):
        per_seat[str(s)] = {
            "role": names[s], "impostor": int(s in impostors),
            "reward": 0.0 if result is None or void else float(result.rewards.get(s, 0.0)),
            **outcome_counts(result, s),
            "survived": int(not seats[s]["killed"] and not seats[s]["ejected"]),
            **seats[s], **attribution[str(s)],
        }
    return {"game": game, "seats": per_seat}


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """The shares of each termination type (Table 1), win rates and actions by role, per seat
    index; void games left out. One pass, running sums."""
    by_role = {role: Totals() for role in ROLES}
    fold = Fold(0, medians=errs.MEDIANS)

    fold.add_all(with_role_totals(per_game, by_role))
    overall: dict[str, Any] = {"games": fold.games, "counted": fold.counted, "void": fold.void,
                               "impostor_win_rate": fold.game.mean("impostors_won"),
                               "mean_timesteps": fold.game.mean("timesteps"),
                               "kills": fold.game.total("kills"),
                               "meetings": fold.game.total("meetings")}
    for e in ENDINGS:
        overall[f"share_{e}"] = fold.game.mean(f"ended_{e}")
    roles = {role: _role_block(t) for role, t in by_role.items()}
    seats = {key: {k: fold.seat(key).total(k) for k in ("reward", "win", "draw", "loss")}
             for key in sorted(fold.seat_totals(), key=int)}
    return {"overall": overall, "roles": roles, "seats": seats}


def _role_block(t: Totals) -> dict[str, Any]:
    n = t.added
    votes = t.total("vote_actions")
    return {"seats": n, "win_rate": t.total("win") / n if n else None,
            "survival_rate": t.total("survived") / n if n else None,
            "mean_reward": t.mean("reward"),
            "vote_accuracy": t.total("votes_for_impostor") / votes if votes else None,
            **{f"{v}_actions": t.total(f"{v}_actions") for v in VERBS}}
