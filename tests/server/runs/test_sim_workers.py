"""`parlor sim --workers N`: the same summary as one process, every game stored once by its
worker, errors and ctrl-c handled, and no scratch file left behind."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from server.cli import main
from server.runs import sim_workers
from tests.server.conftest import figures

ROOT = Path(__file__).resolve().parents[3]
BLOTTO = ["sim", "colonel-blotto", "--seat", "random", "--seat", "scripted:uniform",
          "--games", "20"]
IPD = ["sim", "three-player-ipd", "--seat", "scripted:tit-for-tat", "--seat", "scripted:grim",
       "--seat", "random", "--games", "10"]


@pytest.mark.parametrize("argv", [BLOTTO, IPD], ids=["blotto", "ipd"])
def test_workers_print_the_summary_of_one_process_and_store_every_game_once(
        argv, tmp_path, capsys):
    outputs = {}
    for workers in ("1", "2"):
        db = tmp_path / f"w{workers}.db"
        assert main(argv + ["--seed", "4", "--quiet", "--db", str(db), "--workers",
                            workers]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        outputs[workers] = out.replace(str(db), "DB")
    assert outputs["1"] == outputs["2"]
    games = int(argv[argv.index("--games") + 1])
    # The stored games' ids, for `parlor replay ID` and the lobby's g; a second run's follow.
    assert f"Stored in DB: games 1-{games}." in outputs["2"]
    assert f"{games} games (0 void" in outputs["2"]
    with sqlite3.connect(tmp_path / "w2.db") as conn:
        rows = conn.execute("SELECT CAST(seed AS INTEGER) AS seed, instance, status, "
                            "metrics IS NOT NULL, table_id FROM games ORDER BY seed").fetchall()
    assert [r[0] for r in rows] == [4 + k for k in range(games)]  # each game once
    instances = sorted({r[1] for r in rows})
    assert len(instances) == 2 and instances[0].startswith("sim0-") \
        and instances[1].startswith("sim1-")
    for k, (_, instance, status, has_metrics, table_id) in enumerate(rows):
        assert instance.startswith(f"sim{k % 2}-")  # worker i plays games k % N == i
        assert (status, has_metrics) == ("finished", 1) and table_id.startswith(instance)
    assert main(argv + ["--games", "1", "--quiet", "--db", str(tmp_path / "w2.db")]) == 0
    assert f"Stored in {tmp_path / 'w2.db'}: game {games + 1}." in capsys.readouterr().out


@pytest.fixture
def flaky_bot():
    from tests.server.runs import flaky_bot

    yield flaky_bot.register()
    flaky_bot.unregister()


def test_void_games_and_provider_errors_are_the_same_with_workers(flaky_bot, capsys):
    argv = ["sim", "colonel-blotto", "--seat", "random", "--seat", flaky_bot, "--games", "12",
            "--quiet"]
    outputs = []
    for workers in ("1", "2"):
        assert main(argv + ["--workers", workers]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "12 games (4 void, not counted below; provider errors: {'random': 0, " \
           "'scripted:flaky': 4})" in outputs[0]
    # the env's aggregate saw the void ones
    assert [figures(outputs[0], label) for label in ("Games", "Games counted (not void)",
                                                     "Void (aborted, not counted)")] \
        == [["12"], ["8"], ["4"]]


def test_progress_sums_the_workers_and_ends_with_the_final_line(capsys):
    assert main(BLOTTO + ["--workers", "2"]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    # A slow machine may print a progress line first (one every few seconds off a terminal).
    assert all(line.startswith("parlor sim: ") for line in lines)
    assert lines[-1].startswith("parlor sim: 20/20 games in") and "actions/s" in lines[-1]


def test_without_db_the_shared_scratch_file_is_deleted(monkeypatch, capsys):
    made: list[str] = []

    class Recorded(tempfile.TemporaryDirectory):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.name)

    monkeypatch.setattr(sim_workers.tempfile, "TemporaryDirectory", Recorded)
    assert main(BLOTTO + ["--workers", "2", "--quiet"]) == 0
    assert "Stored in" not in capsys.readouterr().out
    assert len(made) == 1 and not os.path.exists(made[0])


@pytest.mark.parametrize("value", ["0", "-1"])
def test_workers_must_be_at_least_one(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(BLOTTO + ["--workers", value])
    assert exit_.value.code == 2
    assert f"--workers must be at least 1, got {value}" in capsys.readouterr().err


def test_a_failing_worker_is_reported_and_the_run_fails(monkeypatch, capsys):
    monkeypatch.setattr(sim_workers, "env_modules", lambda env: ("tests.no_such_module",))
    assert main(BLOTTO + ["--workers", "2", "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "parlor sim: worker 0 failed:" in err and "No module named 'tests.no_such_module'" \
        in err


def test_envs_and_bots_registered_outside_the_packages_reach_the_workers(tmp_path, capsys):
    import tests.envs  # noqa: F401 - registers proving-ground and its scripted bots

    argv = ["sim", "proving-ground", "--preset", "short", "--seat", "red=scripted:pusher",
            "--seat", "blue=random", "--games", "4", "--quiet"]
    assert main(argv + ["--workers", "2"]) == 0
    two = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == two


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the workers in /proc")
@pytest.mark.parametrize("to", ["parent", "group"])
def test_ctrl_c_stops_every_worker_voiding_their_games_and_exits_130(to, tmp_path):
    """SIGINT to the parent alone, or to the process group (a ctrl-c at a terminal)."""
    db = tmp_path / "sim.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "sim", "colonel-blotto", "--seat", "random",
         "--seat", "random", "--games", "1000000", "--concurrency", "4", "--workers", "2",
         "--quiet", "--db", str(db)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while _count(db, "status = 'finished'") < 20:  # both workers are playing
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        workers = _children(proc.pid)
        if to == "parent":  # it stops its workers
            proc.send_signal(signal.SIGINT)
        else:  # they ignore it: the parent stops them all the same
            os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and out == b""
    assert len(workers) >= 2  # and multiprocessing's resource tracker
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived the run"
        time.sleep(0.05)
    # Every game it started is closed: finished, or voided in flight (none left 'running').
    assert _count(db, "status = 'running'") == 0
    assert _count(db, "status IN ('finished', 'void')") == _count(db, "1") < 1_000_000


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:  # the field after the state
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie is dead, waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _count(db: Path, where: str) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db, timeout=5) as conn:
        try:
            return conn.execute(f"SELECT count(*) FROM games WHERE {where}").fetchone()[0]
        except sqlite3.OperationalError:  # not made yet
            return 0
