"""The Impostor grid's report: per model, per mode x tier and pooled, our figures with their
intervals beside the paper's (`engine/impostor/published.py`), and the chi-square tests of the
winner against each factor. The statistics are `engine/impostor/statistics.py`'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.impostor.published import beside_cells, beside_effects, beside_models
from server.reports.league import run_line


@dataclass
class Report:
    models: list[str]
    experiments: int
    scheduled: int
    figures: dict[str, Any]  # statistics.report(...)
    played: int
    wall: float

    @property
    def counted(self) -> int:
        return int(self.figures.get("games") or 0)

    def render(self) -> str:
        f = self.figures
        width = max([24, *map(len, self.models)])
        lines = [f"The Impostor game grid (paper §2.4): {len(self.models)} models, "
                 f"{self.experiments} experiments, {self.scheduled} games, {self.counted} "
                 f"counted; ours beside the paper's (—: not in the paper)", "",
                 "Per model (%; Imp Win over its impostor games, Maj Win over its majority "
                 "games, 95% Wilson intervals)",
                 f"{'model':{width}} {'Imp Win':>20} {'Maj Win':>20} {'Det Acc':>13} "
                 f"{'SelfDecl':>13} {'GuessSucc':>13} {'Centrality':>12}"]
        for r in beside_models(f.get("models") or {}):
            m = (f.get("models") or {}).get(r["model"], {})
            imp = _ci(r["impostor_win"], m.get("impostor_win_rate_low"),
                      m.get("impostor_win_rate_high"))
            maj = _ci(r["majority_win"], m.get("majority_win_rate_low"),
                      m.get("majority_win_rate_high"))
            lines.append(
                f"{r['model']:{width}} {imp} {_p(r['paper_impostor_win']):>5} "
                f"{maj} {_p(r['paper_majority_win']):>5} "
                f"{_p(r['detection']):>6} {_p(r['paper_detection']):>6} "
                f"{_p(r['self_declaration']):>6} {_p(r['paper_self_declaration']):>6} "
                f"{_p(r['guess_success']):>6} {_p(r['paper_guess_success']):>6} "
                f"{_n(r['centrality']):>5} {_n(r['paper_centrality']):>6}")
        lines += ["", "Impostor win % by mode x tier (95% Wilson interval; paper)"]
        for r in beside_cells(f.get("cells") or []):
            lines.append(f"  {r['mode']:16} {r['tier']:7} {r['games']:>6} games  "
                         f"{_ci(r['impostor_win'], _frac(r['low']), _frac(r['high']))}  "
                         f"paper {_p(r['paper'])}")
        lines += ["", "Pooled (block-bootstrap intervals over experiments; paper)"]
        for r in beside_effects(f):
            paper = _n(r["paper"]) if r["paper_low"] is None else \
                f"{_n(r['paper'])} [{_n(r['paper_low'])}, {_n(r['paper_high'])}]"
            ours = _n(r["ours"]) if r["low"] is None else \
                f"{_n(r['ours'])} [{_n(r['low'])}, {_n(r['high'])}]"
            lines.append(f"  {r['figure']:42} {ours:>26}   paper {paper}")
        lines += ["", "The winner against each factor (chi-square, Cramér's V)"]
        for t in f.get("outcome_tests") or []:
            if "chi2" in t:
                lines.append(f"  {t['factor']:18} chi2 {t['chi2']:9.2f}  dof {t['dof']:>2}  "
                             f"p {t['p_value']:.3g}  V {t['cramers_v']:.3f}")
            else:
                lines.append(f"  {t['factor']:18} (one level only)")
        lines += ["", run_line(self.played, self.scheduled - self.played, self.wall)]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"models": self.models, "experiments": self.experiments,
                "games": self.scheduled, "counted": self.counted, "played": self.played,
                "wall_time_s": round(self.wall, 3), "figures": self.figures,
                "beside_models": beside_models(self.figures.get("models") or {}),
                "beside_cells": beside_cells(self.figures.get("cells") or []),
                "beside_effects": beside_effects(self.figures)}


def _frac(pct: float | None) -> float | None:
    return None if pct is None else pct / 100


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _n(value: float | None) -> str:
    if value is None:
        return "—"
    if float(value).is_integer() and abs(value) >= 10:
        return f"{int(value)}"  # a count (ties)
    return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"


def _ci(pct: float | None, low: float | None, high: float | None) -> str:
    """A percentage with its interval (given as fractions)."""
    if pct is None:
        return f"{'—':>13}"
    if low is None or high is None:
        return f"{pct:5.1f}{'':8}"
    return f"{pct:5.1f} [{100 * low:4.1f},{100 * high:5.1f}]"
