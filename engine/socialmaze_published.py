"""What the SocialMaze paper published for its tasks (spec socialmaze §3 Table 2, §9 Table 8),
shown beside our accuracies in `parlor league maze`, and what each task's report shows: facts
carried over from the paper, in our layout."""

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


def _published(env: str) -> dict[str, float | None]:
    column = _COLUMNS.index(env)
    return {model: values[column] for model, values in _TABLE8.items()}


# Table 2: criminal accuracy % after rounds 1/2/3, Hidden Role Deduction, 6-player Full.
HRD_CRIMINAL_BY_ROUND = {
    "Llama-3.3-70B": (37.6, 46.7, 46.5), "Qwen-2.5-72B": (31.3, 42.6, 50.3),
    "GPT-4o-mini": (33.5, 38.4, 46.5), "GPT-4o": (39.5, 53.3, 53.5),
    "o3-mini": (45.8, 51.2, 59.6), "QwQ-32B": (41.4, 63.5, 78.4),
    "DeepSeek-R1": (44.3, 72.3, 80.4), "o1": (42.5, 67.5, 76.6),
    "Gemini-2.5-Pro": (43.3, 74.3, 87.6),
}

# Table 5: Review Decision accuracy % after the info, reviews and rebuttal stages.
RDP_BY_STAGE = {
    "GPT-4o": (55.3, 86.2, 90.2), "o1": (52.2, 88.6, 78.2), "DeepSeek-R1": (50.2, 88.0, 82.0),
    "Llama-3.1-8B": (37.0, 79.6, 62.0),
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
    preset: str = ""  # the league's preset when --preset is not given ("": the env's default)
    breakdown_title: str = ""  # the paper's per-round or per-stage table, if any
    breakdown: dict[str, tuple[float, ...]] = field(default_factory=dict)


TASKS = {
    "hidden-role": Task(
        "hidden-role", "both", "Both right after the last round (Table 8's HRD)",
        {"crim": "Crim", "self": "Self", "crim_r1": "Crim r1", "crim_r2": "Crim r2",
         "crim_r3": "Crim r3"},
        _published("hidden-role"),
        "the released set, Player 1 drawn 3:2:60:35: compare --preset released-easy",
        ("deceived_baseline", "Self by always answering the deceived role"),
        breakdown_title="criminal after rounds 1/2/3 (Table 2)",
        breakdown=HRD_CRIMINAL_BY_ROUND),
    "social-graph": Task(
        "social-graph", "mean_accuracy", "Mean accuracy over the four query types (Table 8's "
        "SGA)", {"pairwise": "Pairwise", "membership": "Members", "group_count": "Groups",
                 "pair_count": "Pairs"},
        _published("social-graph"),
        "the hard set (14-16 people): compare --preset hard"),
    "find-the-spy": Task(
        "find-the-spy", "accuracy", "Spy named by the solver (Table 8's FtS)",
        {"accuracy_spy": "As spy", "accuracy_civilian": "As civ."},
        _published("find-the-spy"),
        "descriptions written by LLMs; ours are generated from our bank (easier) unless "
        "imported: --preset passive", ("chance", "chance (one of four at random)"), preset="passive"),
    "rating-estimation": Task(
        "rating-estimation", "accuracy", "Exact rating (Table 8's Rating)", {},
        _published("rating-estimation"),
        "the authors' data, labels 1:3:10:73:13; ours is a synthetic sample unless imported",
        ("majority_baseline", "majority class (always the most common true rating)")),
    "review-decision": Task(
        "review-decision", "accuracy", "Decision after the rebuttal (Table 8's RDP)",
        {"right_stage1": "Info", "right_stage2": "Reviews", "right_stage3": "Rebuttal"},
        _published("review-decision"),
        "real OpenReview papers, 67% rejected; ours is a synthetic sample unless imported",
        ("majority_baseline", "majority class (always the most common decision)"),
        breakdown_title="info/reviews/rebuttal (Table 5)", breakdown=RDP_BY_STAGE),
    "user-profile": Task(
        "user-profile", "mean_accuracy", "Both fields right, mean of the two query kinds "
        "(Table 8's UPI)", {"age_group_right": "Age", "gender_right": "Gender"},
        _published("user-profile"),
        "LLM-written comments; ours is a synthetic sample unless imported",
        ("majority_baseline", "majority class (always the most common profile)")),
}
