"""The protocol's `report` reply: `parlor report ENV`'s comparison (server/reports/
comparison.py) in the shape the TUI's report screen reads (docs/protocol.md, `report`).

`parlor serve` and local play hand `build` to the server (server/net/app.py may not import
server/reports), which calls it on a read-only connection in a worker thread.
"""

from __future__ import annotations

import math
import sqlite3
from typing import Any

from server.reports.comparison import bot_kind, compare
from server.reports.fitted_ratings import PROVISIONAL_BELOW, NotFitted, fitted_ratings

# What each of the comparison's row kinds is called in the reply.
GROUPS = {"people": "people", "person": "person", "model": "model", "scripted": "bot",
          "paper": "paper"}
FITTED_RESAMPLES = 100  # the screen's bootstrap (`parlor ratings fit` takes 200 by default)


def build(conn: sqlite3.Connection, env: str, pool: str | None, by: str | None,
          study: str = "") -> dict[str, Any]:
    """The `report` reply's body for `env`'s stored games: `pool` people | bots | mixed (None:
    every game), `by` identity | kind (None: identity); people by the pseudonyms of `study`
    (the server's, when it runs one)."""
    c = compare(conn, env, pool=pool or "all", by=by or "identity", study=study)
    if c.group is None:
        return {"env": env, "title": c.title, "pooled": "no finished games stored",
                "left_out": [], "sections": [], "notes": []}
    left_out = [f"{n} {why}" for why, n in c.left_out.items() if n]
    left_out += [f"{_games(g.games)} of {g.name} (other settings)" for g in c.left_out_groups]
    notes: list[str] = []
    sections = []
    for metric in c.metrics:
        for role in metric.roles:
            tests = {t.other: t for t in c.tests if t.metric == metric.key and t.role == role}
            rows = []
            for r in c.rows:
                if r.metric != metric.key or r.role != role:
                    continue
                test = tests.get(r.who) if r.kind in ("model", "scripted") else None
                rows.append({"who": r.who, "group": GROUPS[r.kind], "games": r.games,
                             "value": _finite(r.value), "low": _finite(r.low),
                             "high": _finite(r.high), "test": _test(test),
                             "warning": test.warning if test else None})
                if r.kind == "paper" and r.note and r.note not in notes:
                    notes.append(r.note)
            sections.append({"metric": metric.key, "label": metric.label,
                             "kind": "mean" if metric.kind == "mean" else "rate",
                             "role": role, "rows": rows})
    fitted = _fitted_section(conn, env, pool or "all", study)
    if fitted is not None:
        sections.append(fitted)
        notes.append("Fitted rating: Bradley–Terry / Plackett–Luce over every stored game of "
                     "the pool at once (any settings; void games left out), on an Elo scale "
                     f"with a 95% bootstrap interval ({FITTED_RESAMPLES} resamples); "
                     f"provisional under {PROVISIONAL_BELOW} games (`parlor ratings fit`).")
    return {"env": env, "title": c.title,
            "pooled": f"{_games(c.group.games, 'finished ')} of {c.group.name}",
            "left_out": left_out, "sections": sections,
            "notes": [n if n.startswith("Fitted") else f"Paper rows: {n}" for n in notes]}


def _fitted_section(conn: sqlite3.Connection, env: str, pool: str, study: str
                    ) -> dict[str, Any] | None:
    """The pool's fitted ratings as one more section (None for an env scored by accuracy)."""
    try:
        fit = fitted_ratings(conn, env, pool, resamples=FITTED_RESAMPLES, study=study)
    except NotFitted:
        return None
    rows = [{"who": r.player, "group": _group(r.player, r.kind), "games": r.games,
             "value": r.rating, "low": r.low, "high": r.high, "test": None,
             "warning": f"provisional: fewer than {PROVISIONAL_BELOW} games"
             if r.provisional else None} for r in fit.rows]
    return {"metric": "fitted_rating", "label": f"Fitted rating, {pool} pool ({_games(fit.games)})",
            "kind": "mean", "role": None, "rows": rows}


def _games(n: int, what: str = "") -> str:
    return f"{n} {what}game{'' if n == 1 else 's'}"


def _group(player: str, kind: str) -> str:
    return "person" if kind == "human" else GROUPS[bot_kind(player)]


def _test(test: Any) -> dict[str, Any] | None:
    if test is None:
        return None
    name = test.method + (f"; effect: {test.effect_name}" if test.effect_name else "")
    return {"name": name, "p_value": _finite(test.p_value), "effect": _finite(test.effect)}


def _finite(value: float | None) -> float | None:
    """JSON has no infinity (an odds ratio over an empty cell): null."""
    return value if value is None or math.isfinite(value) else None
