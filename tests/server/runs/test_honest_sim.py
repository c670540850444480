"""`parlor sim` says what went wrong (issue 22, "Honest commands"): an LLM endpoint that cannot
answer is found before the first game, a run with no counted game exits non-zero with the
reason, an unknown bot is refused before any progress line, long bot names are printed whole,
and the env's metrics are a labelled table grouped by section."""

import socket
import sqlite3

from server.cli import main
from tests.fakes import FakeOpenAI, Reply, Status
from tests.fakes.seating import FAST


def closed_port() -> int:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_endpoint_is_said_before_any_game(tmp_path, capsys):
    spec = f"openai-compatible:x@http://127.0.0.1:{closed_port()}/v1?{FAST}&retries=0"
    db = tmp_path / "s.db"
    code = main(["sim", "colonel-blotto", "--seat", spec, "--seat", "random", "--games", "3",
                 "--preset", "small", "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"parlor sim: {spec} cannot play: endpoint" in err and "connection failed" in err
    assert "parlor sim:" not in out and "games/s" not in err  # no game, no progress line
    if db.exists():  # no table was made
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_a_run_where_every_game_is_void_exits_1_with_the_reason(tmp_path, capsys):
    """The endpoint answers the check, then fails every move: each game is void."""
    def responder(request):
        if "ready" in request.last_user_text():
            return Reply("ready")
        return Status(400, message="this model is switched off")

    with FakeOpenAI(responder=responder) as fake:
        spec = f"openai-compatible:a-model-with-a-long-name@{fake.base_url}?{FAST}&retries=0"
        code = main(["sim", "colonel-blotto", "--seat", spec, "--seat", "random", "--games",
                     "2", "--preset", "small", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Colonel Blotto: 2 games (2 void" in out
    assert "this model is switched off" in out and "(2 games)" in out
    assert "no game was counted: all 2 ended void" in err and "switched off" in err
    # the usage table names the bot in full, however long its spec
    identity = spec.partition("?")[0]  # the settings are stamped apart
    assert any(line.startswith(identity + " ") for line in out.splitlines())


def test_an_unknown_bot_is_refused_before_any_progress_line(capsys):
    code = None
    try:
        main(["sim", "colonel-blotto", "--seat", "nosuch", "--seat", "random", "--games", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown bot 'nosuch' for colonel-blotto" in err and "scripted:adaptive" in err
    assert "parlor sim:" not in err  # the progress line never started


def test_the_envs_metrics_are_a_table_of_labels_grouped_by_section(capsys):
    assert main(["sim", "codenames", "--seat", "scripted:spymaster", "--seat",
                 "scripted:operative", "--seat", "scripted:spymaster", "--seat",
                 "scripted:operative", "--games", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "codenames metrics:" not in out and "red_win_rate" not in out
    start = lines.index("Codenames metrics (the env's own aggregate):")
    table = lines[start + 1:]
    assert any(line.split("  ")[1:2] == ["Red team wins (share)"] or
               line.strip().startswith("Red team wins (share) ") for line in table)
    section = table.index("  Invalid moves:")  # "Invalid moves: breaking a rule" and the like
    assert table[section + 1].startswith("    ") and "breaking a rule" in out
    roles = table.index("By roles:")
    assert "Red Spymaster" in table[roles + 1] and "Blue Operative" in table[roles + 1]
    assert any(line.strip().startswith("Wins (share of games)") for line in table[roles:])
