"""`parlor sim` prints the env's breakdowns under its overall metrics, a line a group (User
Profile's query kinds, Hidden Role's Player 1 roles, a game's roles)."""

from server.cli import main


def test_sim_prints_each_group_of_the_aggregate(capsys):
    assert main(["sim", "user-profile", "--seat", "scripted:majority", "--games", "4",
                 "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    overall = next(line for line in out if line.startswith("user-profile metrics:"))
    assert "majority_baseline" in overall and "mean_accuracy" in overall
    groups = out[out.index(overall) + 1:]
    assert [line.split(":")[0] for line in groups] == ["  kinds item", "  kinds user"]
    assert all("games 2" in line and "majority_label" in line for line in groups)
