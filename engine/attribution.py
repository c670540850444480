"""Invalid-move attribution and the error statistics shared by every env (MindGames §10).

Per game and seat (`error_attribution`): the paper's columns (Clean, Caused, Witnessed,
Self-Forf., Opp-Forf.) as counts of moves, the part of the witnessed ones made by teammates,
and the seat's invalid moves by MindGames class and by severity. It reads the action record,
where the base `Game` notes every rejected move (outcome "invalid", `category` its class) and
whether it forfeited or eliminated its seat (`fatal`), so it works for every env whatever its
events are called. Records stored before actions carried a category count their invalid moves
as class "other" and their fatal errors from their `forfeit` events.

"Another seat" is every other seat, teammates included: in MindGames every seat is its own agent,
and the paper's Codenames rows (Clean + Caused + Witnessed = Games, Witnessed = Opp-Forf.) only
add up that way. `teammate_invalid` / `teammate_forfeit` say how much of it came from the seat's
own side, so the other sides' share is the difference.

Per env aggregate (`error_statistics`, `role_statistics`): the game-level error rate, totals by
class and severity, the paper's columns as counts of games per seat, the median termination depth
and the error-survival warning, win rates with their 95% Wilson interval, and role advantage.
Each env says what its termination depth is measured in (`termination_depth`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.aggregate import Fold, Totals
from engine.evaluation import error_survival_warning, role_advantage, wilson_interval
from engine.policy import ERROR_CLASSES, OTHER
from engine.records import Event, GameRecord

# The game metric every env gives for the termination depth (§10): the share of the game's
# expected length played before its first fatal error, None in a game without one.
DEPTH = "forfeit_depth"
MEDIANS = (DEPTH,)  # `Fold(players, medians=MEDIANS)`: what `error_statistics` needs

# Plain labels of the columns `error_attribution` gives every seat of every game.
ATTRIBUTION_LABELS = {
    "invalid_caused": "Invalid moves made",
    "invalid_witnessed": "Invalid moves by others",
    "self_forfeit": "Forfeited by own invalid moves",
    "opponent_forfeit": "Another seat forfeited by invalid moves",
    "clean": "Game without invalid moves",
    "teammate_invalid": "Invalid moves by teammates",
    "teammate_forfeit": "A teammate forfeited by invalid moves",
    "errors_format": "Invalid moves: unreadable answers",
    "errors_rule": "Invalid moves: breaking a rule",
    "errors_turn_limit": "Invalid moves: over a turn limit",
    "errors_other": "Invalid moves: other",
    "errors_fatal": "Invalid moves that forfeited or eliminated",
    "errors_nonfatal": "Invalid moves retried or corrected",
}

# The paper's columns as counts of games (aggregate, per seat): name -> the per-game count whose
# games (those where it is above 0) it counts.
GAME_COUNTS = {
    "games_clean": "clean",
    "games_caused": "invalid_caused",
    "games_witnessed": "invalid_witnessed",
    "games_self_forfeit": "self_forfeit",
    "games_opponent_forfeit": "opponent_forfeit",
    "games_teammate_invalid": "teammate_invalid",
    "games_teammate_forfeit": "teammate_forfeit",
}
_TOTALS = ("errors_fatal", "errors_nonfatal", *(f"errors_{c}" for c in ERROR_CLASSES))

# Plain labels of what `error_statistics` and `role_statistics` give.
ERROR_LABELS = {
    "games_clean": "Games without invalid moves (Clean)",
    "games_caused": "Games with own invalid moves (Caused)",
    "games_witnessed": "Games with invalid moves by others (Witnessed)",
    "games_self_forfeit": "Games forfeited by own invalid moves (Self-Forf.)",
    "games_opponent_forfeit": "Games where another seat forfeited (Opp-Forf.)",
    "games_teammate_invalid": "Games with invalid moves by teammates",
    "games_teammate_forfeit": "Games where a teammate forfeited",
    "win_rate": "Wins (share of games)",
    "win_rate_low": "Wins: 95% interval, low end",
    "win_rate_high": "Wins: 95% interval, high end",
    "role_advantage": "Win rate above the mean over roles",
    "error_rate": "Games with an invalid move (share)",
    "fatal_error_rate": "Games with a fatal invalid move (share)",
    "invalid_moves": "Invalid moves",
    DEPTH: "Share of the expected length played before a fatal error",
    f"median_{DEPTH}": "Median share of the expected length played before a fatal error",
    "error_survival_warning": "Warning: many early failures, rankings reward surviving them",
}


def _legacy(record: GameRecord) -> bool:
    """Stored before actions carried their class (and whether they were fatal)."""
    return any(a.outcome == "invalid" and a.category is None for a in record.actions)


def _sides(record: GameRecord) -> tuple[str, ...]:
    """Each seat's side: from the result, else the setup's roles, else a side per seat."""
    if record.result is not None and len(record.result.sides) == record.players:
        return record.result.sides
    roles = record.setup.get("roles")
    if isinstance(roles, list) and len(roles) == record.players and all(
            isinstance(r, Mapping) and "side" in r for r in roles):
        return tuple(str(r["side"]) for r in roles)
    return tuple(str(s) for s in range(record.players))


def error_attribution(record: GameRecord) -> dict[str, dict[str, int]]:
    """Per seat (as a string key): invalid moves caused and witnessed (and by teammates),
    forfeits, clean game, and the seat's invalid moves by class and by severity."""
    players = record.players
    caused = [0] * players
    forfeits = [0] * players
    classes = [dict.fromkeys(ERROR_CLASSES, 0) for _ in range(players)]
    legacy = _legacy(record)
    for a in record.actions:
        if a.outcome == "invalid":
            caused[a.seat] += 1
            forfeits[a.seat] += a.fatal
            classes[a.seat][a.category if a.category in ERROR_CLASSES else OTHER] += 1
    if legacy:
        forfeits = [0] * players
        for e in record.events:
            if e.type == "forfeit":
                forfeits[e.data["seat"]] += 1
    sides = _sides(record)
    total_invalid, total_forfeits = sum(caused), sum(forfeits)
    out: dict[str, dict[str, int]] = {}
    for s in range(players):
        mates = [o for o in range(players) if o != s and sides[o] == sides[s]]
        fatal = min(forfeits[s], caused[s])  # a legacy forfeit event may be a resignation
        out[str(s)] = {
            "invalid_caused": caused[s], "invalid_witnessed": total_invalid - caused[s],
            "self_forfeit": forfeits[s], "opponent_forfeit": total_forfeits - forfeits[s],
            "clean": int(total_invalid == 0),
            "teammate_invalid": sum(caused[o] for o in mates),
            "teammate_forfeit": sum(forfeits[o] for o in mates),
            **{f"errors_{c}": n for c, n in classes[s].items()},
            "errors_fatal": fatal, "errors_nonfatal": caused[s] - fatal,
        }
    return out


def first_fatal_error(record: GameRecord) -> Event | None:
    """The event marking the game's first fatal error: the base class's public or private
    `invalid_move` with `fatal` true (in a legacy record, the first `forfeit`); None if none."""
    legacy = _legacy(record)
    for e in record.events:
        if (e.type == "forfeit") if legacy else (e.type == "invalid_move" and e.data.get("fatal")):
            return e
    return None


def events_before(record: GameRecord, event: Event, *types: str) -> int:
    """How many events of `types` the game logged before `event`."""
    return sum(1 for e in record.events if e.seq < event.seq and e.type in types)


def termination_depth(record: GameRecord, expected: float,
                      played: Callable[[Event], float]) -> float | None:
    """The termination depth of one game (§10): how much of its `expected` length was played
    before its first fatal error (`played(event)`: how much, in the env's unit, before the event
    marking it), as a share, at most 1; None in a game without a fatal error."""
    event = first_fatal_error(record)
    if event is None or expected <= 0:
        return None
    return min(1.0, max(0.0, played(event)) / expected)


def win_interval(wins: float, games: int) -> dict[str, float | None]:
    """The win rate and its 95% Wilson interval (None without games)."""
    interval = wilson_interval(wins, games)
    low, high = interval if interval is not None else (None, None)
    return {"win_rate": wins / games if games else None, "win_rate_low": low,
            "win_rate_high": high}


def seat_errors(totals: Totals, games: int) -> dict[str, Any]:
    """One seat's error columns over `games` counted games: every attribution count summed,
    the paper's columns as counts of games, and its win rate with the Wilson interval."""
    return {**{name: totals.total(name) for name in ATTRIBUTION_LABELS},
            **{name: totals.positive(count) for name, count in GAME_COUNTS.items()},
            **win_interval(totals.total("win"), games)}


def error_statistics(fold: Fold, players: int) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The error statistics of an env's aggregate, from a fold made with `medians=MEDIANS` over
    per-game metrics that spread `error_attribution` into their seats and give `DEPTH`: the
    overall block (error rate, fatal-error rate, totals by severity and class, median depth,
    the error-survival warning) and, per seat key, `seat_errors`."""
    seats = {str(s): seat_errors(fold.seat(str(s)), fold.counted) for s in range(players)}
    erred = fold.counted - fold.seat("0").positive("clean")
    error_rate = fold.per_counted(erred)
    depth = fold.median(DEPTH)
    totals = {name: sum(seat[name] for seat in seats.values()) for name in _TOTALS}
    overall = {
        "error_rate": error_rate,
        "fatal_error_rate": fold.per_counted(fold.game.count(DEPTH)),
        "invalid_moves": totals["errors_fatal"] + totals["errors_nonfatal"],
        **totals,
        f"median_{DEPTH}": depth,
        "error_survival_warning": error_survival_warning(error_rate, depth),
    }
    return overall, seats


def role_statistics(wins: Mapping[str, float], games: Mapping[str, int]
                    ) -> dict[str, dict[str, Any]]:
    """Per role: games played in it (the realised count), win rate with its Wilson interval,
    and the role advantage (its win rate above the mean over the roles played)."""
    advantage = role_advantage(wins, games)
    return {role: {"games": n, **win_interval(wins.get(role, 0.0), n),
                   "role_advantage": advantage.get(role)}
            for role, n in games.items()}
