"""The league and report commands say what they did (issue 22, "Honest commands"): MG-Ref runs
its whole schedule, the paper's pool sizes, with scripted references (Secret Mafia's four are the
styled scripted players); an unknown reference is named as such; an LLM endpoint that cannot
answer is found before the first game; the last line speaks of stored games only when there
were some; `maze report` counts Find the Spy's answers beside its games."""

import json
import sqlite3

from server.cli import main
from tests.server.runs.test_honest_sim import closed_port
from tests.server.runs.test_sim_and_bot_failures import broken_bot  # noqa: F401 - a fixture

PAPER_POOLS = [
    "--candidate", "colonel-blotto:scripted:adaptive",
    "--candidate", "three-player-ipd:scripted:tit-for-tat",
    "--candidate", "scripted:agent",
    "--refs", "colonel-blotto:scripted:uniform", "colonel-blotto:random",
    "colonel-blotto:scripted:adaptive", "three-player-ipd:scripted:grim",
    "three-player-ipd:scripted:always-defect", "three-player-ipd:random",
    "codenames:scripted:team", "codenames:scripted:agent", "codenames:random",
    "secret-mafia:scripted:cautious", "secret-mafia:scripted:aggressive",
    "secret-mafia:scripted:quiet", "secret-mafia:scripted:loud",
]


def test_the_whole_mgref_schedule_runs_with_scripted_references(tmp_path, capsys):
    db, report = tmp_path / "m.db", tmp_path / "m.json"
    assert main(["league", "mgref", *PAPER_POOLS, "--db", str(db), "--json", str(report),
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    envs = json.loads(report.read_text())["envs"]
    assert [(e["env"], e["scheduled"], e["games"]) for e in envs] == [
        ("colonel-blotto", 30, 30), ("three-player-ipd", 36, 36), ("codenames", 36, 36),
        ("secret-mafia", 96, 96)]  # the paper's 3 / 3 / 3 / 4 references
    last = out.strip().splitlines()[-2]  # then "Stored in ..."
    assert last.startswith("198 of 198 scheduled games counted; 198 games played now; wall")
    assert "store" not in last
    # the four styled players sit in Secret Mafia's seats under their own names
    with sqlite3.connect(db) as conn:
        seated = {r[0] for r in conn.execute(
            "SELECT DISTINCT s.identity FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.env = 'secret-mafia'")}
    assert seated == {"scripted:agent", "scripted:cautious", "scripted:aggressive",
                      "scripted:quiet", "scripted:loud"}
    assert main(["league", "mgref", *PAPER_POOLS, "--env", "secret-mafia", "--db", str(db),
                 "--quiet"]) == 0
    assert "0 games played now, 96 found already stored; wall" in capsys.readouterr().out


def test_an_unknown_reference_is_named_not_counted(tmp_path, capsys):
    assert main(["league", "mgref", "--candidate", "random", "--refs", "nosuch", "--db",
                 str(tmp_path / "x.db"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'nosuch' for colonel-blotto" in err and "references" not in err


def test_an_unreachable_candidate_stops_the_league_before_any_game(tmp_path, capsys):
    spec = f"openai-compatible:m@http://127.0.0.1:{closed_port()}/v1?timeout=5&retries=0"
    db = tmp_path / "x.db"
    assert main(["league", "mgref", "--candidate", spec, "--refs", "random",
                 "scripted:uniform", "--env", "colonel-blotto", "--db", str(db), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"{spec} cannot play: endpoint" in err and "no game was played" in err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_a_league_with_no_counted_game_exits_1(broken_bot, capsys):  # noqa: F811
    assert main(["league", "mgref", "--candidate", broken_bot, "--refs", "random",
                 "--env", "colonel-blotto", "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert "0 of 10 scheduled games counted; 10 games played now; wall" in out
    assert "no game was counted: every game ended void" in err


def test_maze_league_without_db_speaks_of_no_store(capsys):
    assert main(["league", "maze", "--task", "review-decision", "--seat", "scripted:majority",
                 "--instances", "2", "--quiet"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("2 games played now; wall time") and "store" not in last


def test_maze_report_counts_find_the_spys_answers_beside_its_games(tmp_path, capsys):
    db, out = str(tmp_path / "p.db"), tmp_path / "r.json"
    assert main(["sim", "find-the-spy", "--seat", "scripted:describer", "--seat", "random",
                 "--seat", "scripted:describer", "--seat", "scripted:describer", "--games", "1",
                 "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["maze", "report", "--db", db, "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["player", "games", "answers"]
    row = next(line for line in lines if line.startswith("scripted:describer "))
    assert row.split()[1:3] == ["1", "3"]  # one game, three seats' answers
    models = json.loads(out.read_text())["find-the-spy"]["paper"]["models"]
    assert (models["scripted:describer"]["games"], models["scripted:describer"]["answers"]) \
        == (1, 3)
