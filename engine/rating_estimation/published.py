"""What the SocialMaze paper published for Rating Estimation (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

TASK = Task(
    "rating-estimation", "accuracy", "Exact rating (Table 8's Rating)", {},
    table8("rating-estimation"),
    "the authors' data, labels 1:3:10:73:13; ours is a synthetic sample unless imported",
    ("majority_baseline", "majority class (always the most common true rating)"))
