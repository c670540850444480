"""What the SocialMaze paper published for Social Graph Analysis (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

TASK = Task(
    "social-graph", "mean_accuracy", "Mean accuracy over the four query types (Table 8's "
    "SGA)", {"pairwise": "Pairwise", "membership": "Members", "group_count": "Groups",
             "pair_count": "Pairs"},
    table8("social-graph"),
    "the hard set (14-16 people): compare --preset hard")
