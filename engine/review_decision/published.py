"""What the SocialMaze paper published for Review Decision Prediction (spec socialmaze §9 Table 8,
Table 5), shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

# Table 5: accuracy % after the info, reviews and rebuttal stages.
BY_STAGE = {
    "GPT-4o": (55.3, 86.2, 90.2), "o1": (52.2, 88.6, 78.2), "DeepSeek-R1": (50.2, 88.0, 82.0),
    "Llama-3.1-8B": (37.0, 79.6, 62.0),
}

TASK = Task(
    "review-decision", "accuracy", "Decision after the rebuttal (Table 8's RDP)",
    {"right_stage1": "Info", "right_stage2": "Reviews", "right_stage3": "Rebuttal"},
    table8("review-decision"),
    "real OpenReview papers, 67% rejected; ours is a synthetic sample unless imported",
    ("majority_baseline", "majority class (always the most common decision)"),
    breakdown_title="info/reviews/rebuttal (Table 5)", breakdown=BY_STAGE)
