"""`parlor export` says what it left out (issue 22, "Honest commands"): games of environments
the format does not hold are counted on stderr with the formats that do, and a
Find the Spy game dealt from its seed has its deal as its instance id, not null."""

import json

from server.cli import main


def _games(tmp_path, capsys) -> str:
    """A database with a SocialGrid, a Find the Spy and a Colonel Blotto game."""
    db = str(tmp_path / "p.db")
    for argv in (["socialgrid", "--seat", "crew=scripted:agent", "--seat",
                  "impostor=scripted:agent"],
                 ["find-the-spy", "--seat", "scripted:describer", *["--seat", "random"] * 3],
                 ["colonel-blotto", "--seat", "random", "--seat", "random", "--preset",
                  "small"]):
        assert main(["sim", *argv, "--games", "1", "--quiet", "--db", db]) == 0
    capsys.readouterr()
    return db


def test_the_export_says_which_games_it_left_out_and_why(tmp_path, capsys):
    db = _games(tmp_path, capsys)
    assert main(["export", "--format", "mindgames", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert {json.loads(line)["env_name"] for line in out.splitlines()} == {"colonel-blotto"}
    assert "skipped 0 games; left out 1 find-the-spy game (exported by --format socialmaze or " \
           "games or actions); 1 socialgrid game (exported by --format games or actions)" in err
    assert main(["export", "--format", "mindgames", "--env", "codenames", "--db", db]) == 0
    assert "1 colonel-blotto game (not chosen by --env)" in capsys.readouterr().err


def test_a_dealt_find_the_spy_game_names_its_deal_as_the_instance(tmp_path, capsys):
    db = _games(tmp_path, capsys)
    assert main(["export", "--format", "socialmaze", "--db", db]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 4  # one vote per seat
    spy = rows[0]["expected"]["player"]
    ids = {r["instance_id"] for r in rows}
    assert len(ids) == 1
    (instance,) = ids
    civilian, spy_word, player = instance.split("/")
    assert civilian and spy_word and civilian != spy_word and player == f"P{spy}"
    assert {r["source"] for r in rows} == {"dealt"}
    assert "left out 1 colonel-blotto game (exported by --format mindgames or games or " \
           "actions)" in err
