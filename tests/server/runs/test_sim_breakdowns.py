"""`parlor sim` prints the env's breakdowns under its overall metrics, a table with a column a
group (User Profile's query kinds, Hidden Role's Player 1 roles, a game's roles)."""

from server.cli import main
from tests.server.conftest import figures


def test_sim_prints_each_group_of_the_aggregate(capsys):
    assert main(["sim", "user-profile", "--seat", "scripted:majority", "--games", "4",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    overall = out[:out.index("By kinds:")]
    assert figures(overall, "Majority-class baseline (always the most common true answer)")
    assert figures(overall, "Mean accuracy over the query kinds played (the headline)") == ["0.500"]
    lines = out.splitlines()
    groups = out[out.index("By kinds:"):]
    assert lines[lines.index("By kinds:") + 1].split() == ["item", "user"]
    assert figures(groups, "Games") == ["2", "2"]
    assert figures(groups, "Most common true answer")
