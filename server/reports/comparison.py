"""`parlor report ENV`: people beside models on the env's paper metrics, as plain rows (the
TUI's report screen draws the same `Comparison`; `render` writes it as text, CSV, JSON or
Markdown). docs/reports.md says what is pooled, the intervals, the tests and the small-sample
rule.

- Pooled: finished games of one env with the same preset, config (hashed) and rules_version:
  by default the group with the most finished games; the others are named with their counts.
  Void games are never counted (counted and named); games a table finished with a defaulted
  move for a stalled seat are left out when asked; `--pool` keeps games of people only, bots
  only or both.
- Rows per metric and role (where the game has roles, each seat's role from the result):
  people pooled, each person (pseudonymous unless names are asked for), each model and each
  scripted bot (or, by kind, people / models / scripted bots), then the paper's numbers.
- Tests: people pooled against each bot row of the same metric and role (server/reports/
  stats.py: Fisher's exact test for rates, a permutation test for means and ratios).
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.config import config_hash
from engine.registry import get
from server.reports import stats
from server.reports.paper_metrics import RATE, Metric, label, metrics, references
from server.reports.tables import NONE, number, render, share
from server.store.pseudonyms import Pseudonyms

PEOPLE, PERSON, MODEL, SCRIPTED, PAPER = "people", "person", "model", "scripted", "paper"
POOLS = ("all", "people", "bots", "mixed")
BY = ("identity", "kind")
KIND_ROWS = {PERSON: "people", MODEL: "models", SCRIPTED: "scripted bots"}


class NoSuchGroup(LookupError):
    """--preset or --config-hash named settings no stored game of the env was played with."""


@dataclass(frozen=True)
class Group:
    """Games that may be pooled: one preset, config and rules version."""

    preset: str | None
    config_hash: str
    rules_version: str
    games: int  # finished
    void: int

    @property
    def name(self) -> str:
        return (f"{self.preset or 'custom settings'} (config {self.config_hash}, rules "
                f"v{self.rules_version})")


@dataclass(frozen=True)
class Row:
    """One line of a metric's table: `games` seat-games counted, `trials` what a rate is a share
    of (games, or answers) or a ratio's denominator; value and 95% interval (shares 0-1 for
    rates and ratios). A paper row has no games and no interval."""

    metric: str
    role: str | None
    who: str
    kind: str  # people | person | model | scripted | paper
    games: int
    trials: float
    value: float | None
    low: float | None
    high: float | None
    note: str = ""


@dataclass(frozen=True)
class Test:
    """People pooled against one bot row, same metric and role."""

    metric: str
    role: str | None
    other: str
    people_games: int
    other_games: int
    method: str
    difference: float | None  # people minus the bot
    effect_name: str
    effect: float | None
    p_value: float | None
    warning: str | None


@dataclass(frozen=True)
class MetricInfo:
    key: str
    kind: str  # rate | mean | ratio
    label: str
    roles: tuple[str | None, ...]


@dataclass
class Comparison:
    env: str
    title: str
    group: Group | None  # None: no finished game to pool
    left_out_groups: list[Group]
    left_out: dict[str, int]  # why -> games (void, defaulted moves, pool)
    metrics: list[MetricInfo] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    filters: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"env": self.env, "title": self.title,
                "pooled": asdict(self.group) if self.group else None,
                "left_out_groups": [asdict(g) for g in self.left_out_groups],
                "left_out": self.left_out, "filters": self.filters,
                "metrics": [asdict(m) for m in self.metrics],
                "rows": [asdict(r) for r in self.rows],
                "tests": [_finite(asdict(t)) for t in self.tests]}


def _finite(test: dict[str, Any]) -> dict[str, Any]:
    """JSON has no infinity: an odds ratio over an empty cell is written as null."""
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v
            for k, v in test.items()}


@dataclass
class _Seat:
    game: int
    who: str
    kind: str  # person | model | scripted
    role: str | None
    values: Mapping[str, Any]


def bot_kind(identity: str) -> str:
    """"scripted" for a scripted bot (random, scripted:NAME), else "model"."""
    return SCRIPTED if identity == "random" or identity.startswith("scripted:") else MODEL


def compare(conn: sqlite3.Connection, env_id: str, *, preset: str | None = None,
            config: str | None = None, by: str = "identity", since: float | None = None,
            pool: str = "all", exclude_defaulted: bool = False, names: bool = False,
            study: str = "",
            seed: int = 0) -> Comparison:
    """The comparison of one env's stored games (see the module's docstring). `preset`,
    `config` (a config hash or its prefix) pick the group; `since` a Unix time the games started
    at or after; `pool` all | people | bots | mixed; `by` identity | kind. Raises KeyError for
    an unknown env, NoSuchGroup when `preset`/`config` match no stored group."""
    env = get(env_id)
    games = conn.execute(
        "SELECT id, preset, config, rules_version, status, metrics, result FROM games "
        "WHERE env = ? AND status IN ('finished', 'void') AND started >= ? ORDER BY id",
        (env_id, since or 0.0)).fetchall()
    groups: dict[tuple[str | None, str, str], list[sqlite3.Row]] = defaultdict(list)
    for g in games:
        groups[(g["preset"], config_hash(g["config"]), g["rules_version"])].append(g)
    summary = {key: Group(*key, sum(g["status"] == "finished" for g in found),
                          sum(g["status"] == "void" for g in found))
               for key, found in groups.items()}
    wanted = [k for k in summary if (preset is None or k[0] == preset)
              and (config is None or k[1].startswith(config))]
    if (preset is not None or config is not None) and not wanted:
        raise NoSuchGroup("no stored games of " + env_id + " with " + " and ".join(
            [f"preset {preset!r}"] * (preset is not None)
            + [f"config {config!r}"] * (config is not None)) + _groups_hint(summary.values()))
    filters = {"preset": preset, "config": config, "by": by, "since": since, "pool": pool,
               "exclude_defaulted": exclude_defaulted, "names": names, "study": study, "seed": seed}
    # the most finished games; a tie goes to the group played last
    chosen = max(wanted, key=lambda k: (summary[k].games, groups[k][-1]["id"]), default=None)
    others = sorted((g for k, g in summary.items() if k != chosen), key=lambda g: -g.games)
    out = Comparison(env_id, env.title, summary.get(chosen) if chosen else None, others,
                     {}, filters=filters)
    if chosen is None or not summary[chosen].games:
        return out
    seats, left_out = _seats(conn, env, groups[chosen], pool, exclude_defaulted, names, study)
    out.left_out = {"void": summary[chosen].void, **left_out}
    for metric in metrics(env_id):
        _metric(out, env, metric, seats, by, seed)
    return out


def _groups_hint(groups: Iterable[Group]) -> str:
    found = [f"{g.preset or 'custom'}/{g.config_hash} ({g.games} games)" for g in groups]
    return f"; stored: {', '.join(found)}" if found else "; none stored"


def in_pool(pool: str, kinds: Sequence[str]) -> bool:
    """Whether a game whose seats are of `kinds` is in `pool`: `people` (every seat a person),
    `bots` (no person: a bot is any kind but 'human'), `mixed` (both) or `all`."""
    people = sum(kind == "human" for kind in kinds)
    return {"all": True, "people": people == len(kinds), "bots": people == 0,
            "mixed": 0 < people < len(kinds)}[pool]


def _seats(conn: sqlite3.Connection, env: Any, games: Sequence[sqlite3.Row], pool: str,
           exclude_defaulted: bool, names: bool, study: str = ""
           ) -> tuple[list[_Seat], dict[str, int]]:
    finished = {g["id"]: g for g in games if g["status"] == "finished" and g["metrics"]}
    by_game: dict[int, list[sqlite3.Row]] = defaultdict(list)
    first = min(finished, default=0)
    for s in conn.execute(
            "SELECT s.game_id, s.seat, s.identity, s.kind, p.name FROM seats s "
            "JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id "
            "WHERE g.env = ? AND s.game_id >= ? ORDER BY s.game_id, s.seat", (env.id, first)):
        if s["game_id"] in finished:
            by_game[s["game_id"]].append(s)
    pseudonyms = None if names else Pseudonyms(conn, study)
    left_out: Counter[str] = Counter()
    out = []
    for game_id, g in finished.items():
        sat = by_game[game_id]
        if not in_pool(pool, [s["kind"] for s in sat]):
            left_out[f"not in the {pool} pool"] += 1
            continue
        metrics_ = json.loads(g["metrics"])
        per_seat = metrics_.get("seats") or {}
        if exclude_defaulted and any((m or {}).get("defaulted_moves") for m in per_seat.values()):
            left_out["with a defaulted move"] += 1
            continue
        roles = (json.loads(g["result"]) or {}).get("roles") or []
        for s in sat:
            seat = s["seat"]
            role = roles[seat] if seat < len(roles) else None
            if role == env.seat_name(seat):
                role = None  # every seat plays for itself under its own name: no roles
            if s["kind"] == "human":
                who = (s["name"] if names else pseudonyms.label(s["identity"], "human"))
                kind = PERSON
            else:
                who, kind = s["identity"], bot_kind(s["identity"])
            out.append(_Seat(game_id, who, kind, role, per_seat.get(str(seat)) or {}))
    return out, dict(left_out)


def _value(values: Mapping[str, Any], key: str) -> float | None:
    found = values.get(key)
    return float(found) if isinstance(found, (int, float)) else None


def _pairs(seats: Iterable[_Seat], metric: Metric) -> tuple[list[float], list[float]]:
    """(numerators, denominators), one per seat-game holding the metric."""
    num, den = [], []
    for s in seats:
        top = _value(s.values, metric.key)
        if top is None:
            continue
        if metric.den:
            parts = [_value(s.values, k) for k in metric.den]
            if any(p is None for p in parts):
                continue
            bottom = sum(parts)  # type: ignore[arg-type]
        else:
            bottom = 1.0
        num.append(top)
        den.append(bottom)
    return num, den


def _estimate(metric: Metric, num: Sequence[float], den: Sequence[float], seed: int
              ) -> stats.Estimate:
    if metric.kind == RATE:
        return stats.rate(sum(num), int(sum(den)))
    return stats.ratio(num, den, seed)


def _metric(out: Comparison, env: Any, metric: Metric, seats: Sequence[_Seat], by: str,
            seed: int) -> None:
    held = [s for s in seats if not metric.roles or s.role in metric.roles]
    roles = sorted({s.role for s in held}, key=lambda r: (r is None, r or ""))
    info = MetricInfo(metric.key, metric.kind, label(metric, env.metric_labels), tuple(roles))
    if not _pairs(held, metric)[0]:
        return  # no seat holds it (e.g. a role nobody played)
    out.metrics.append(info)
    preset = out.group.preset if out.group else None
    for role in roles:
        mine = [s for s in held if s.role == role]
        samples: dict[tuple[str, str], list[_Seat]] = defaultdict(list)
        for s in mine:
            if s.kind == PERSON:
                samples[(PEOPLE, PEOPLE)].append(s)
            key = (KIND_ROWS[s.kind], s.kind) if by == "kind" else (s.who, s.kind)
            if by == "identity" or s.kind != PERSON:
                samples[key].append(s)
        order = sorted(samples, key=lambda k: ([PEOPLE, PERSON, MODEL, SCRIPTED].index(k[1]),
                                               -len(samples[k]), k[0]))
        pooled = _pairs(samples.get((PEOPLE, PEOPLE), ()), metric)
        for who, kind in order:
            num, den = _pairs(samples[(who, kind)], metric)
            if not num:
                continue
            found = _estimate(metric, num, den, seed)
            out.rows.append(Row(metric.key, role, who, kind, len(num), sum(den), found.value,
                                found.low, found.high))
            if kind in (MODEL, SCRIPTED) and pooled[0]:
                out.tests.append(_test(metric, role, who, pooled, (num, den), seed))
        for ref in references(out.env, preset, metric, role):
            out.rows.append(Row(metric.key, role, ref.who, PAPER, 0, 0, ref.value, None, None,
                                ref.note))


def _test(metric: Metric, role: str | None, other: str,
          people: tuple[list[float], list[float]], bot: tuple[list[float], list[float]],
          seed: int) -> Test:
    if metric.kind == RATE:
        found = stats.compare_rates(sum(people[0]), int(sum(people[1])), sum(bot[0]),
                                    int(sum(bot[1])), len(people[0]), len(bot[0]))
    else:
        found = stats.compare_ratios(people, bot, seed)
    return Test(metric.key, role, other, len(people[0]), len(bot[0]), found.method,
                found.difference, found.effect_name, found.effect, found.p_value, found.warning)


# -- writing it ------------------------------------------------------------------------------
ROW_COLUMNS = {"metric": "metric", "role": "role", "who": "who", "kind": "kind",
               "games": "games", "value": "value", "interval": "95% interval", "note": "note"}
TEST_COLUMNS = {"metric": "metric", "role": "role", "other": "people vs", "games": "games",
                "method": "test", "difference": "difference", "effect": "effect",
                "p_value": "p", "warning": "warning"}


def render_comparison(c: Comparison, fmt: str = "table") -> str:
    """The comparison as `fmt` (table | csv | json | md). csv writes the rows' table and the
    tests' table one after the other, a blank line between."""
    if fmt == "json":
        return json.dumps(c.to_json(), indent=1)
    kinds = {m.key: m.kind for m in c.metrics}
    labels = {m.key: m.label for m in c.metrics}
    if fmt == "csv":
        rows = render({k: k for k in ("metric", "role", "who", "kind", "games", "trials",
                                      "value", "low", "high", "note")},
                      [asdict(r) for r in c.rows], "csv")
        tests = render({k: k for k in ("metric", "role", "other", "people_games",
                                       "other_games", "method", "difference", "effect_name",
                                       "effect", "p_value", "warning")},
                       [asdict(t) for t in c.tests], "csv")
        return f"{rows}\n\n{tests}"
    lines = [_heading(c)]
    if c.group is None or not c.metrics:
        return "\n".join([*lines, "", "No finished games to compare."])
    for metric in c.metrics:
        for role in metric.roles:
            rows = [r for r in c.rows if r.metric == metric.key and r.role == role]
            tests = [t for t in c.tests if t.metric == metric.key and t.role == role]
            title = f"{labels[metric.key]} ({metric.kind})" + (f", role {role}" if role else "")
            lines += ["", f"## {title}" if fmt == "md" else title, ""]
            lines.append(render({k: ROW_COLUMNS[k] for k in ("who", "kind", "games", "value",
                                                             "interval", "note")},
                                [_shown_row(r, kinds[r.metric]) for r in rows], fmt))
            if tests:
                lines += ["", render({k: TEST_COLUMNS[k] for k in (
                    "other", "games", "method", "difference", "effect", "p_value", "warning")},
                    [_shown_test(t, kinds[t.metric]) for t in tests], fmt)]
    return "\n".join(lines)


def _heading(c: Comparison) -> str:
    if c.group is None:
        return f"{c.title} ({c.env}): no finished games stored"
    left = "; ".join(f"{n} {why}" for why, n in c.left_out.items() if n) or "nothing"
    others = ", ".join(f"{g.name}: {g.games} games" for g in c.left_out_groups) or "none"
    return (f"{c.title} ({c.env}): pooled {c.group.games} finished games of {c.group.name}; "
            f"left out of it: {left}. Other settings, not pooled: {others}.")


def _figure(kind: str, value: float | None) -> str:
    return share(value) if kind != "mean" else number(value)


def _shown_row(r: Row, kind: str) -> dict[str, Any]:
    interval = (NONE if r.low is None or r.high is None
                else f"{_figure(kind, r.low)} - {_figure(kind, r.high)}")
    return {"who": r.who, "kind": r.kind, "games": r.games if r.kind != PAPER else NONE,
            "value": _figure(kind, r.value),
            "interval": interval if r.kind != PAPER else NONE, "note": r.note}


def _shown_test(t: Test, kind: str) -> dict[str, Any]:
    effect = NONE if t.effect is None else f"{t.effect_name} {number(t.effect)}"
    difference = (NONE if t.difference is None else
                  f"{t.difference:+.1%}" if kind != "mean" else f"{t.difference:+.3g}")
    return {"other": t.other, "games": f"{t.people_games} v {t.other_games}",
            "method": t.method, "difference": difference, "effect": effect,
            "p_value": number(t.p_value), "warning": t.warning or ""}
