"""The Impostor game's metrics from a game record (spec impostor §7): per game the winner, the
`win_condition`, detection (share of the majority's ballots naming the impostor), the
impostor's self-declaration and guess, top-of-ballot ties with what the two symmetric
tie-breakers would have given, the pair and the speaking positions; per seat its role, speaking
position, team, ballot (target, confidence, self-declaration), the vote-network measures and
coalition (definitions in docs/rules/impostor.md). The aggregate gives the paper's rates."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame, Totals
from engine.core import GameRecord
from engine.evaluation import wilson_interval
from engine.impostor.config import IMPOSTOR, IMPOSTOR_SIDE, PLAYERS
from engine.impostor.rules import TIE, WIN_CONDITIONS, same_word
from engine.outcome import OUTCOME_LABELS, outcome_counts

LABELS = {
    **OUTCOME_LABELS,
    **errs.ATTRIBUTION_LABELS,
    # seat level
    "role": "Role",
    "impostor": "Held the impostor's word",
    "position": "Speaking position (0 = first)",
    "team": "Team label (team modes)",
    "valid_ballot": "Cast a valid ballot",
    "target": "Player voted for (player number)",
    "voted_impostor": "Voted for the impostor",
    "confidence": "Confidence given (0 to 1)",
    "self_declared": "Declared itself the impostor",
    "guess_correct": "Guessed the majority word (with a self-declaration)",
    "description_flags": "Description repaired after a second refusal",
    "description_refusals": "Descriptions refused",
    "influence": "Influence: share of the other valid voters with the same target",
    "centrality": "Degree centrality in the same-target vote network",
    "in_coalition": "In a coalition (two or more valid voters with one target)",
    "coalition_converted": "Coalition named the impostor and the majority won",
    # game level
    "void": "Void (aborted, not counted)",
    "impostor_won": "The impostor won",
    "majority_won": "The majority won",
    "win_condition": "How the game was decided",
    **{f"ended_{c}": f"Decided by: {c.replace('_', ' ')}" for c in WIN_CONDITIONS},
    "tier": "Word pair tier",
    "mode": "Assignment mode",
    "pair_index": "Word pair (index in its tier)",
    "impostor_seat": "The impostor's seat (0-3)",
    "impostor_position": "The impostor's speaking position (0 = first)",
    "detection": "Detection: share of the majority's ballots naming the impostor",
    "impostor_self_declared": "The impostor declared itself",
    "guess_success": "The impostor's guess was right (when it declared itself)",
    "tie": "Top-of-ballot tie (two or more players share the most valid votes)",
    "tie_size": "Players tied at the top",
    "impostor_tied": "The impostor was among the tied",
    "majority_won_sym_candidate": "Majority win if a tie eliminated one tied player at random",
    "majority_won_sym_side": "Majority win if a tie were settled by a fair coin",
    "invalid_ballots": "Ballots that counted for nobody",
    "flagged_descriptions": "Descriptions repaired after a second refusal",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "impostor_win_rate": "Impostor win rate",
    "impostor_win_rate_low": "Impostor win rate: 95% interval, low end",
    "impostor_win_rate_high": "Impostor win rate: 95% interval, high end",
    "majority_win_rate": "Majority win rate",
    "detection_accuracy": "Detection accuracy (majority ballots naming the impostor)",
    "self_declaration_rate": "SelfDecl: impostor self-declaration rate",
    "guess_success_rate": "GuessSucc: right guesses among self-declarations",
    "balance": "Balance 1 - |2 p_imp - 1|",
    "tie_rate": "Share of games with a top-of-ballot tie",
    "impostor_win_rate_sym_candidate": "Impostor win rate under the Sym-candidate tie-breaker",
    "impostor_win_rate_sym_side": "Impostor win rate under the Sym-side tie-breaker",
    "invalid_ballot_rate": "Share of ballots that counted for nobody",
    **{f"share_{c}": f"Share of games decided by: {c.replace('_', ' ')}"
       for c in WIN_CONDITIONS},
    **{f"impostor_win_rate_position_{p}": f"Impostor win rate when it spoke in position {p}"
       for p in range(PLAYERS)},
}


def _ballots(record: GameRecord) -> dict[int, dict[str, Any]]:
    for e in record.events:
        if e.type == "ballots_revealed":
            return {int(s): b for s, b in e.data["ballots"].items()}
    return {}


def _ended(record: GameRecord) -> Mapping[str, Any]:
    return next((e.data for e in record.events if e.type == "game_ended"), {})


def vote_network(targets: Mapping[int, int]) -> dict[int, dict[str, float]]:
    """Per valid voter: influence (= reach: the share of the other valid voters with the same
    target) and degree centrality on the same-target graph ((in + out) / (|V| - 1), twice the
    influence since the graph is symmetric)."""
    scale = max(len(targets) - 1, 1)
    out = {}
    for p, target in targets.items():
        same = sum(1 for q, t in targets.items() if q != p and t == target)
        out[p] = {"influence": same / scale, "centrality": 2 * same / scale}
    return out


def game_metrics(record: GameRecord) -> dict[str, Any]:
    setup = record.setup or {}
    impostor = setup.get("impostor")
    result = record.result
    void = result is None or result.void
    ballots = _ballots(record)
    ended = _ended(record)
    positions = {}
    for e in record.events:
        if e.type == "game_started":
            positions = {s: p for p, s in enumerate(e.data["order"])}
    flags: dict[int, int] = {}
    for e in record.events:
        if e.type == "description" and e.data["flags"] and e.data["flags"] != ["none"]:
            flags[e.data["seat"]] = flags.get(e.data["seat"], 0) + 1
    refusals: dict[int, int] = {}
    for a in record.actions:
        if a.outcome == "invalid" and record.events and a.category == "rule":
            refusals[a.seat] = refusals.get(a.seat, 0) + 1
    valid = {s: b for s, b in ballots.items() if b.get("valid")}
    network = vote_network({s: b["target"] for s, b in valid.items()})
    condition = ended.get("win_condition") if not void else None
    impostor_won = int(ended.get("winner") == IMPOSTOR_SIDE) if condition else None
    tied = ended.get("tied") or []
    teams = setup.get("teams") or []
    majority_word = setup.get("majority_word", "")
    seats: dict[str, dict[str, Any]] = {}
    attribution = errs.error_attribution(record)
    for s in range(record.players):
        b = valid.get(s)
        is_imp = s == impostor
        converted = None
        if b is not None and network[s]["influence"] > 0:
            converted = int(b["target"] == impostor and impostor_won == 0)
        seats[str(s)] = {
            "role": IMPOSTOR if is_imp else "Majority", "impostor": int(is_imp),
            "position": positions.get(s), "team": teams[s] if teams else None,
            "valid_ballot": int(b is not None) if ballots else None,
            "target": b["target"] + 1 if b else None,
            "voted_impostor": int(b["target"] == impostor) if b else None,
            "confidence": b.get("confidence") if b else None,
            "self_declared": int(bool(b["self_declaration"])) if b else None,
            "guess_correct": (int(same_word(b.get("word_guess"), majority_word))
                              if b and b["self_declaration"] else None),
            "description_flags": flags.get(s, 0), "description_refusals": refusals.get(s, 0),
            "influence": network[s]["influence"] if b else None,
            "centrality": network[s]["centrality"] if b else None,
            "in_coalition": int(network[s]["influence"] > 0) if b else None,
            "coalition_converted": converted,
            "reward": 0.0 if void else float(result.rewards.get(s, 0.0)),  # type: ignore[union-attr]
            **outcome_counts(result, s), **attribution[str(s)],
        }
    majority_ballots = [ballots.get(s) for s in range(record.players) if s != impostor]
    own = valid.get(impostor) if impostor is not None else None
    game: dict[str, Any] = {
        "void": int(void), "impostor_won": impostor_won,
        "majority_won": None if impostor_won is None else 1 - impostor_won,
        "win_condition": condition,
        **{f"ended_{c}": int(condition == c) if condition else None for c in WIN_CONDITIONS},
        "tier": setup.get("tier"), "mode": record.config.get("mode"),
        "pair_index": setup.get("pair_index"), "impostor_seat": impostor,
        "impostor_position": positions.get(impostor) if impostor is not None else None,
        "detection": (sum(1 for b in majority_ballots if b and b.get("valid")
                          and b["target"] == impostor) / len(majority_ballots)
                      if ballots and majority_ballots else None),
        "impostor_self_declared": int(bool(own and own["self_declaration"])) if ballots
        else None,
        "guess_success": (int(same_word(own.get("word_guess"), majority_word))
                          if own and own["self_declaration"] else None),
        "tie": int(bool(tied)) if condition else None,
        "tie_size": len(tied) if condition else None,
        "impostor_tied": int(impostor in tied) if condition else None,
        "invalid_ballots": sum(1 for b in ballots.values() if not b.get("valid")),
        "flagged_descriptions": sum(flags.values()),
    }
    majority_won = game["majority_won"]
    if condition == TIE:  # a tie the default gave the impostor
        game["majority_won_sym_candidate"] = 1 / len(tied) if impostor in tied else 0.0
        game["majority_won_sym_side"] = 0.5
    else:
        game["majority_won_sym_candidate"] = game["majority_won_sym_side"] = majority_won
    return {"game": game, "seats": seats}


def _rate(totals: Totals, name: str) -> float | None:
    return totals.mean(name)


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """The paper's rates over the games (void ones left out), per seat index, and the impostor
    win rate by the impostor's speaking position. One pass, running sums."""
    fold = Fold(PLAYERS)
    by_position = [Totals() for _ in range(PLAYERS)]
    for metrics in per_game:
        fold.add(metrics)
        game = metrics["game"]
        if not game.get("void") and game.get("impostor_position") is not None \
                and game.get("impostor_won") is not None:
            by_position[game["impostor_position"]].add({"won": game["impostor_won"]})
    g = fold.game
    wins, games = g.total("impostor_won"), g.count("impostor_won")
    low, high = wilson_interval(wins, games) or (None, None)
    p_imp = _rate(g, "impostor_won")
    sym_c, sym_s = _rate(g, "majority_won_sym_candidate"), _rate(g, "majority_won_sym_side")
    ballots = PLAYERS * fold.counted
    overall: dict[str, Any] = {
        "games": fold.games, "counted": fold.counted,
        "impostor_win_rate": p_imp, "impostor_win_rate_low": low,
        "impostor_win_rate_high": high,
        "majority_win_rate": None if p_imp is None else 1 - p_imp,
        "detection_accuracy": _rate(g, "detection"),
        "self_declaration_rate": _rate(g, "impostor_self_declared"),
        "guess_success_rate": _rate(g, "guess_success"),
        "balance": None if p_imp is None else 1 - abs(2 * p_imp - 1),
        "tie_rate": _rate(g, "tie"),
        "impostor_win_rate_sym_candidate": None if sym_c is None else 1 - sym_c,
        "impostor_win_rate_sym_side": None if sym_s is None else 1 - sym_s,
        "invalid_ballot_rate": g.total("invalid_ballots") / ballots if ballots else None,
        **{f"share_{c}": _rate(g, f"ended_{c}") for c in WIN_CONDITIONS},
        **{f"impostor_win_rate_position_{p}": by_position[p].mean("won")
           for p in range(PLAYERS)},
    }
    return {"overall": overall, "seats": fold.seat_totals()}
