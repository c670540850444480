"""The paper's Table 1 as the spec gives it (§14.2): every row sums to 100 % of 20 games."""

from engine.amongagents.metrics import ENDINGS
from engine.amongagents.published import SETUPS, TABLE_1, published


def test_table_1_rows_are_the_papers():
    assert ENDINGS == ("crew_eliminated", "time_limit", "impostors_eliminated", "tasks_done")
    assert all(sum(row) == 100 for row in TABLE_1.values())
    assert published("all-llm", True) == {"crew_eliminated": 0.15, "time_limit": 0.20,
                                          "impostors_eliminated": 0.15, "tasks_done": 0.50}
    assert published("llm-crew", False)["time_limit"] == 0.55
    assert published("llm-impostor", False)["crew_eliminated"] == 0.75
    # All Random has no LLM, so no planner: its one row answers either setting.
    assert published("all-random", True) == published("all-random", False) == published(
        "all-random", None)
    assert {s for s, _ in TABLE_1} == set(SETUPS) and published("all-llm", None) is None
