"""What the Impostor paper published (spec impostor §10), as data, and our report's figures laid
beside it as plain rows for the league's report to print. Percentages as the paper gives them
(0-100); our rates (0-1) are scaled to match. Where the spec is loose the note says so."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.impostor.config import MODES
from engine.impostor.statistics import ALL
from engine.impostor.words import TIERS

# Table 1, per model: Imp Win %, Maj Win %, Det Acc %, Centrality, Reach, CoalEff %. The paper
# prints each percentage with its 95% half-width (about ±0.7 to ±1.0), which the spec omits.
# Imp Win is over games the model was the impostor, Maj Win over games it held a majority seat.
TABLE1_COLUMNS = ("impostor_win", "majority_win", "detection", "centrality", "reach",
                  "coalition_efficiency")
TABLE1: dict[str, tuple[float, ...]] = {
    "GPT-4o": (69.0, 58.2, 77.0, 1.313, 0.657, 71.6),
    "Claude-Sonnet-4": (53.9, 42.6, 51.1, 0.843, 0.422, 48.0),
    "DeepSeek-v3": (48.6, 61.1, 68.7, 1.178, 0.589, 68.5),
    "Llama-4-Maverick": (50.6, 56.6, 65.0, 1.123, 0.562, 62.5),
    "Llama-4-Scout": (41.3, 56.8, 60.8, 1.111, 0.556, 60.7),
    "Llama-3.1-70B": (38.0, 61.5, 65.2, 1.175, 0.587, 63.6),
    "GPT-3.5-Turbo": (35.7, 58.2, 55.5, 1.020, 0.510, 61.6),
    "Llama-3.1-405B": (27.8, 62.6, 59.8, 1.050, 0.525, 63.9),
    "Llama-3.1-8B": (30.4, 46.8, 34.3, 0.650, 0.325, 53.6),
}
# SelfDecl % and GuessSucc % per model (spec §10; Llama-3.1-8B's 0.0 rests on about 0.1% of
# its impostor games, so it is barely a rate).
SELF_DECLARATION: dict[str, tuple[float, float]] = {
    "GPT-4o": (45.7, 90.6), "Claude-Sonnet-4": (29.2, 91.2), "DeepSeek-v3": (29.0, 71.0),
    "Llama-4-Scout": (24.9, 52.2), "Llama-4-Maverick": (21.2, 81.8),
    "Llama-3.1-8B": (0.1, 0.0), "Llama-3.1-70B": (35.5, 32.6),
    "Llama-3.1-405B": (31.5, 1.0), "GPT-3.5-Turbo": (1.5, 8.2),
}
# Impostor win % by mode x difficulty (easy, medium, hard, expert, all). The spec marks the
# "all modes" row as approximate (≈); its last cell equals the pooled 43.9.
MODE_BY_TIER: dict[str, tuple[float, ...]] = {
    "homogeneous": (47.3, 44.8, 52.4, 51.0, 48.9),
    "cross_play": (41.3, 41.5, 45.3, 44.4, 43.1),
    "team_blind": (42.5, 42.8, 49.1, 50.6, 46.2),
    "team_aware": (26.9, 37.4, 52.6, 53.1, 42.5),
    "team_semi_aware": (28.8, 37.2, 53.2, 54.2, 43.4),
    ALL: (36.7, 40.3, 49.3, 49.4, 43.9),
}
# Pooled impostor win rate 0.439 with its experiment-block bootstrap interval [0.425, 0.453].
OVERALL_IMPOSTOR_WIN = (43.9, 42.5, 45.3)
# Impostor win % under the default rule and the two symmetric tie-breakers; 10,593 ties.
TIE_BREAKERS = {"default": 43.9, "sym_candidate": 42.8, "sym_side": 40.7}
TIES = 10_593
# Odds ratios of an impostor win: seat 1, 2, 3 against seat 0 and each mode against
# homogeneous (Wald; the spec gives no intervals). The paper's text rounds cross-play to
# "≈ 0.80" where Table 2 says 0.79, and team-aware to "≈ 0.772".
SEAT_ODDS_RATIOS = {1: 1.12, 2: 1.26, 3: 1.22}
MODE_ODDS_RATIOS = {"cross_play": 0.79, "team_aware": 0.77, "team_blind": 0.90,
                    "team_semi_aware": 0.80}
# Pooled pseudo-arm ITT in percentage points, with its block-bootstrap interval.
ITT = (-1.11, -1.64, -0.55)

_PERCENT = {"impostor_win": "impostor_win_rate", "majority_win": "majority_win_rate",
            "detection": "detection_accuracy", "coalition_efficiency": "coalition_efficiency",
            "self_declaration": "self_declaration_rate", "guess_success": "guess_success_rate"}
_PLAIN = {"centrality": "centrality", "reach": "reach"}


def _key(name: str) -> str:
    """A model name reduced to letters and digits, provider, path, a server (`@URL`) and
    settings (`?k=v`) left out."""
    model = re.split(r"[?@]", name.lower())[0]
    return re.sub(r"[^a-z0-9]", "", re.split(r"[:/]", model)[-1])


def paper_model(spec: str) -> str | None:
    """The paper's model a spec names ("openai:gpt-4o" is GPT-4o,
    "openrouter:meta-llama/llama-3.1-8b-instruct" Llama-3.1-8B): the longest paper name
    the spec's last part starts with, followed by nothing, "instruct" or a date."""
    key = _key(spec)
    found = [name for name in TABLE1
             if key.startswith(_key(name))
             and re.fullmatch(r"(instruct)?\d*", key[len(_key(name)):])]
    return max(found, key=len) if found else None


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def beside_models(models: Mapping[str, Mapping[str, Any]],
                  names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Per model of the report (`statistics.report(...)["models"]`), ours and the paper's
    Table 1 and SelfDecl / GuessSucc columns (percentages 0-100). `names` maps a spec to the
    paper's name where `paper_model` cannot tell; paper figures are None for other models."""
    rows = []
    for spec, ours in models.items():
        name = (names or {}).get(spec) or paper_model(spec)
        paper = dict(zip(TABLE1_COLUMNS, TABLE1.get(name, ()), strict=False))
        paper.update(zip(("self_declaration", "guess_success"),
                         SELF_DECLARATION.get(name, ()), strict=False))
        row: dict[str, Any] = {"model": spec, "paper_model": name if name in TABLE1 else None}
        for column, key in {**_PERCENT, **_PLAIN}.items():
            value = ours.get(key)
            row[column] = _percent(value) if column in _PERCENT else value
            row[f"paper_{column}"] = paper.get(column)
        rows.append(row)
    return rows


def beside_cells(cells: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The impostor win % per mode x tier (with the `all` margins) of the report's `cells`,
    with its Wilson interval, beside the paper's; in the paper's order, only cells we have."""
    ours = {(c["mode"], c["tier"]): c for c in cells}
    rows = []
    for mode in (*MODES, ALL):
        for i, tier in enumerate((*TIERS, ALL)):
            cell = ours.get((mode, tier))
            if cell is None:
                continue
            rows.append({"mode": mode, "tier": tier, "games": cell["impostor_games"],
                         "impostor_win": _percent(cell["impostor_win_rate"]),
                         "low": _percent(cell["impostor_win_rate_low"]),
                         "high": _percent(cell["impostor_win_rate_high"]),
                         "paper": MODE_BY_TIER[mode][i]})
    return rows


def beside_effects(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The pooled figures beside the paper's: the impostor win rate with its block-bootstrap
    interval, the tie-breakers, the ITT (percentage points), seat and mode odds ratios.
    Each row: figure, ours, low, high, paper, paper_low, paper_high."""
    o = report.get("overall") or {}

    def row(figure: str, ours: float | None, low: float | None = None,
            high: float | None = None, paper: Sequence[float | None] = (None,)
            ) -> dict[str, Any]:
        p = (*paper, None, None)
        return {"figure": figure, "ours": ours, "low": low, "high": high,
                "paper": p[0], "paper_low": p[1], "paper_high": p[2]}

    rows = [row("impostor win %", _percent(o.get("impostor_win_rate")),
                _percent(o.get("impostor_win_rate_block_low")),
                _percent(o.get("impostor_win_rate_block_high")), OVERALL_IMPOSTOR_WIN),
            row("ties", o.get("ties"), paper=(TIES,)),
            row("impostor win %, Sym-candidate",
                _percent(o.get("impostor_win_rate_sym_candidate")),
                paper=(TIE_BREAKERS["sym_candidate"],)),
            row("impostor win %, Sym-side", _percent(o.get("impostor_win_rate_sym_side")),
                paper=(TIE_BREAKERS["sym_side"],)),
            row("speaking-order ITT (pp)", _percent(o.get("itt")), _percent(o.get("itt_low")),
                _percent(o.get("itt_high")), ITT)]
    for r in report.get("seat_odds_ratios", []):
        rows.append(row(f"odds ratio seat {r['seat']} vs seat 0", r.get("odds_ratio"),
                        r.get("low"), r.get("high"), (SEAT_ODDS_RATIOS[r["seat"]],)))
    for r in report.get("mode_odds_ratios", []):
        rows.append(row(f"odds ratio {r['mode']} vs homogeneous", r.get("odds_ratio"),
                        r.get("low"), r.get("high"), (MODE_ODDS_RATIOS[r["mode"]],)))
    return rows


__all__ = ["MODE_BY_TIER", "TABLE1", "beside_cells", "beside_effects", "beside_models",
           "paper_model"]
