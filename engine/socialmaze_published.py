"""What the SocialMaze paper published across its tasks (spec socialmaze §9 Table 8), and how a
task's report shows the paper's numbers beside our accuracies (`parlor league maze`, `parlor maze
report`): a `Task`. Each task's own `Task` and tables are its env package's `published.py`."""

from __future__ import annotations

from dataclasses import dataclass, field

# Table 8, accuracy % per task ("–": no human baseline for SGA). User Profile: the mean of its
# two query kinds; Review Decision: the last stage.
_COLUMNS = ("hidden-role", "find-the-spy", "rating-estimation", "social-graph",
            "review-decision", "user-profile")
_TABLE8 = {
    #                 HRD   FtS   Rating  SGA    RDP   UPI
    "Llama-3.1-8B": (2.0, 37.2, 57.2, 28.2, 62.0, 60.2),
    "Llama-3.3-70B": (9.0, 60.0, 74.8, 81.0, 72.2, 78.6),
    "Phi-4": (8.2, 45.2, 60.4, 40.6, 61.4, 62.4),
    "Qwen-2.5-72B": (5.6, 48.9, 72.2, 80.6, 65.8, 68.0),
    "QwQ-32B": (59.4, 50.2, 74.4, 95.0, 79.6, 72.2),
    "GPT-4o-mini": (4.6, 61.2, 75.8, 53.0, 85.0, 74.4),
    "GPT-4o": (8.2, 69.2, 76.0, 83.2, 90.2, 79.2),
    "o3-mini": (22.2, 74.0, 71.2, 99.0, 78.6, 71.4),
    "o1": (50.8, 78.4, 76.2, 99.2, 78.2, 77.0),
    "DeepSeek-R1": (85.6, 70.2, 71.0, 98.6, 82.0, 74.6),
    "Gemini-2.5-Pro": (90.2, 76.6, 73.6, 100.0, 77.6, 73.0),
    "Human (avg.)": (70.8, 84.4, 75.2, None, 96.0, 73.9),
}


def table8(env: str) -> dict[str, float | None]:
    """Table 8's column of a task: accuracy % by model, the human average last."""
    column = _COLUMNS.index(env)
    return {model: values[column] for model, values in _TABLE8.items()}


@dataclass(frozen=True)
class Task:
    """A task's report: its headline (an overall aggregate key that is a share of games, and
    the seat metric it averages, for the Wilson interval), the other overall figures worth a
    column, and the paper's numbers."""

    env: str
    headline: str
    headline_label: str
    columns: dict[str, str]  # overall aggregate key -> column title
    published: dict[str, float | None]
    note: str  # what the published numbers were measured on
    baseline: tuple[str, str] | None = None  # (aggregate key, what it is)
    preset: str = ""  # the league's preset when --preset is not given ("": the env's default)
    breakdown_title: str = ""  # the paper's per-round or per-stage table, if any
    breakdown: dict[str, tuple[float, ...]] = field(default_factory=dict)
