"""`parlor sim` at scale: constant memory (no record loaded, tables dropped as games end, the
env's aggregate folded from per-game metrics read once), results that do not depend on
--concurrency, and the progress line. Memory is checked by what is held, not by RSS."""

from __future__ import annotations

import asyncio
import gc
import io
import weakref
from collections.abc import Iterator

import pytest

from engine.core import Env
from engine.registry import get
from server.cli import main
from server.net.app import Server
from server.runs import progress as progress_module
from server.runs import sim
from server.runs.games import metrics_table
from server.runs.progress import Progress
from server.store.store import Store
from tests.server.conftest import figures
from tests.server.runs.test_sim_and_bot_failures import broken_bot  # noqa: F401 - a fixture

BLOTTO = ["sim", "colonel-blotto", "--seat", "random", "--seat", "scripted:uniform",
          "--preset", "small"]
IPD = ["sim", "three-player-ipd", "--seat", "random", "--seat", "scripted:tit-for-tat",
       "--seat", "random"]


@pytest.fixture
def held(monkeypatch):
    """Fails any record load or replay; tracks the tables alive and in the lobby, and what the
    env's aggregate is fed, while sim runs."""
    def refuse(*args, **kwargs):
        raise AssertionError("sim must not load or replay a record")

    monkeypatch.setattr(Store, "load_record", refuse)
    monkeypatch.setattr(Env, "replay", refuse)
    seen = {"alive": 0, "listed": 0, "fed": None}
    tables: weakref.WeakSet = weakref.WeakSet()
    create = Server.create_table

    def create_table(self, *args, **kwargs):
        gc.collect()  # what is still alive is really held by someone
        seen["alive"] = max(seen["alive"], len(tables))
        seen["listed"] = max(seen["listed"], len(self.tables))
        table = create(self, *args, **kwargs)
        tables.add(table)
        return table

    monkeypatch.setattr(Server, "create_table", create_table)
    run = sim._run

    async def traced_run(args, overrides, summary):
        aggregate = summary.env.aggregate_metrics

        def fold(per_game):
            seen["fed"] = per_game
            return aggregate(per_game)

        summary.env = _EnvProxy(summary.env, fold)
        return await run(args, overrides, summary)

    monkeypatch.setattr(sim, "_run", traced_run)
    return seen


class _EnvProxy:
    """The env with its aggregate_metrics wrapped (envs are shared singletons)."""

    def __init__(self, env, aggregate_metrics):
        self._env = env
        self.aggregate_metrics = aggregate_metrics

    def __getattr__(self, name):
        return getattr(self._env, name)


async def _records(db) -> list:
    store = await Store.open(db)
    try:
        games = sorted(await store.games(limit=1000), key=lambda g: g["seed"])
        return [await store.load_record(g["id"]) for g in games]
    finally:
        await store.close()


def test_sim_folds_stored_metrics_without_records_and_drops_finished_tables(
        tmp_path, capsys, monkeypatch, held):
    db = tmp_path / "sim.db"
    assert main(IPD + ["--games", "24", "--seed", "5", "--concurrency", "3", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert 1 <= held["alive"] <= 3 and 1 <= held["listed"] <= 3  # only the games in flight
    assert isinstance(held["fed"], Iterator)  # a stream of per-game metrics, not a list
    monkeypatch.undo()
    # The aggregate the old way: every record read back from the database.
    env = get("three-player-ipd")
    records = asyncio.run(_records(db))
    assert len(records) == 24
    expected = env.aggregate_metrics([env.game_metrics(r) for r in records])["overall"]
    table = metrics_table(env, {"overall": expected})
    assert "\n".join(table) in out
    totals = {"random": [0, 0, 0, 0.0], "scripted:tit-for-tat": [0, 0, 0, 0.0]}
    for r in records:
        for seat, m in env.game_metrics(r)["seats"].items():
            row = totals[IPD[3 + 2 * int(seat)]]
            for i, name in enumerate(("win", "draw", "loss", "reward")):
                row[i] += m[name]
    for spec, (win, draw, loss, reward) in totals.items():
        seats = 48 if spec == "random" else 24
        assert f"{spec:32} {seats:>5} {win:>4} {draw:>4} {loss:>4} {reward / seats:>11.3f}" in out
    assert "parlor sim: 24/24 games in" in err and "games/s" in err


@pytest.mark.parametrize("argv", [BLOTTO, IPD], ids=["blotto", "ipd"])
def test_the_summary_does_not_depend_on_concurrency(argv, capsys):
    outputs = []
    for concurrency in ("1", "4"):
        assert main(argv + ["--games", "20", "--seed", "3", "--concurrency", concurrency,
                            "--quiet"]) == 0
        out, err = capsys.readouterr()
        outputs.append(out)
        assert err == ""  # --quiet: no progress line
    assert outputs[0] == outputs[1]
    assert "20 games (0 void" in outputs[0]


def test_concurrency_plays_games_side_by_side(monkeypatch, capsys):
    in_flight: list[int] = []
    create = Server.create_table

    def create_table(self, *args, **kwargs):
        in_flight.append(sum(t.status != "over" for t in self.tables.values()))
        return create(self, *args, **kwargs)

    monkeypatch.setattr(Server, "create_table", create_table)
    assert main(BLOTTO + ["--games", "8", "--concurrency", "4", "--quiet"]) == 0
    assert max(in_flight) == 3  # the fourth table is created while three games play


@pytest.mark.parametrize("value", ["0", "-2"])
def test_concurrency_must_be_at_least_one(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(BLOTTO + ["--concurrency", value])
    assert exit_.value.code == 2
    assert "--concurrency must be at least 1" in capsys.readouterr().err


@pytest.mark.usefixtures("broken_bot")
def test_void_games_provider_errors_and_failed_calls_are_summed(capsys):
    assert main(["sim", "colonel-blotto", "--seat", "random", "--seat", "scripted:broken",
                 "--games", "3", "--concurrency", "2", "--quiet"]) == 1  # no game counted
    out = capsys.readouterr().out
    assert "3 games (3 void, not counted below; provider errors: {'random': 0, " \
           "'scripted:broken': 3})" in out
    failed = next(x for x in out.splitlines() if x.startswith("scripted:broken"))
    assert failed.split()[-1] == "3"  # one failed call per game
    assert figures(out, "Games counted (not void)") == ["0"]
    assert figures(out, "Void (aborted, not counted)") == ["3"]


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _progress(tty: bool, counts=(25, 400)) -> tuple[Progress, _Stream, list[float]]:
    now = [100.0]
    stream = _Stream(tty)
    return Progress("parlor sim", 100, lambda: counts, stream, clock=lambda: now[0]), stream, now


def test_the_progress_line_shows_done_total_rates_and_eta():
    progress, stream, now = _progress(tty=False)
    now[0] += 5
    assert progress.line() == "parlor sim: 25/100 games, 5.0 games/s, 80 actions/s, ETA 15s"
    progress.finish()
    assert stream.getvalue() == "parlor sim: 25/100 games in 5s, 5.0 games/s, 80 actions/s\n"
    idle, _, now = _progress(tty=False, counts=(0, 0))
    now[0] += 1
    assert idle.line().endswith("ETA ?")


async def test_a_terminal_gets_a_line_redrawn_in_place_a_log_a_line_every_few_seconds(
        monkeypatch):
    monkeypatch.setattr(progress_module, "TTY_EVERY", 0.01)
    monkeypatch.setattr(progress_module, "LOG_EVERY", 0.05)
    written = {}
    for tty in (True, False):
        progress, stream, _ = _progress(tty)
        drawing = asyncio.create_task(progress.run())
        await asyncio.sleep(0.12)
        drawing.cancel()
        progress.finish()
        written[tty] = stream.getvalue()
    assert written[True].count("\r") >= 4 and written[True].count("\n") == 1
    assert written[True].startswith("\rparlor sim: 25/100 games")
    assert "\r" not in written[False] and 2 <= written[False].count("\n") <= 4
