"""What the SocialMaze paper published for its tasks (spec socialmaze §3 Table 2, §9 Table 8),
shown beside our accuracies in `parlor league maze`, and what each task's report shows: facts
carried over from the paper, in our layout."""

from __future__ import annotations

from dataclasses import dataclass, field

# Table 8, accuracy % per task (HRD, SGA; "–": no human baseline for SGA).
_TABLE8 = {
    #                 HRD    SGA
    "Llama-3.1-8B": (2.0, 28.2),
    "Llama-3.3-70B": (9.0, 81.0),
    "Phi-4": (8.2, 40.6),
    "Qwen-2.5-72B": (5.6, 80.6),
    "QwQ-32B": (59.4, 95.0),
    "GPT-4o-mini": (4.6, 53.0),
    "GPT-4o": (8.2, 83.2),
    "o3-mini": (22.2, 99.0),
    "o1": (50.8, 99.2),
    "DeepSeek-R1": (85.6, 98.6),
    "Gemini-2.5-Pro": (90.2, 100.0),
    "Human (avg.)": (70.8, None),
}

# Table 2: criminal accuracy % after rounds 1/2/3, Hidden Role Deduction, 6-player Full.
HRD_CRIMINAL_BY_ROUND = {
    "Llama-3.3-70B": (37.6, 46.7, 46.5), "Qwen-2.5-72B": (31.3, 42.6, 50.3),
    "GPT-4o-mini": (33.5, 38.4, 46.5), "GPT-4o": (39.5, 53.3, 53.5),
    "o3-mini": (45.8, 51.2, 59.6), "QwQ-32B": (41.4, 63.5, 78.4),
    "DeepSeek-R1": (44.3, 72.3, 80.4), "o1": (42.5, 67.5, 76.6),
    "Gemini-2.5-Pro": (43.3, 74.3, 87.6),
}


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
    by_round: dict[str, tuple[float, ...]] = field(default_factory=dict)


TASKS = {
    "hidden-role": Task(
        "hidden-role", "both", "Both right after the last round (Table 8's HRD)",
        {"crim": "Crim", "self": "Self", "crim_r1": "Crim r1", "crim_r2": "Crim r2",
         "crim_r3": "Crim r3"},
        {m: v[0] for m, v in _TABLE8.items()},
        "the released set, Player 1 drawn 3:2:60:35: compare --preset released-easy",
        ("deceived_baseline", "Self by always answering the deceived role"),
        HRD_CRIMINAL_BY_ROUND),
    "social-graph": Task(
        "social-graph", "mean_accuracy", "Mean accuracy over the four query types (Table 8's "
        "SGA)", {"pairwise": "Pairwise", "membership": "Members", "group_count": "Groups",
                 "pair_count": "Pairs"},
        {m: v[1] for m, v in _TABLE8.items()},
        "the hard set (14-16 people): compare --preset hard"),
}
