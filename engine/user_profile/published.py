"""What the SocialMaze paper published for User Profile Inference (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

TASK = Task(
    "user-profile", "mean_accuracy", "Both fields right, mean of the two query kinds "
    "(Table 8's UPI)", {"age_group_right": "Age", "gender_right": "Gender"},
    table8("user-profile"),
    "LLM-written comments; ours is a synthetic sample unless imported",
    ("majority_baseline", "majority class (always the most common profile)"))
