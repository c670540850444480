"""What the SocialMaze paper published for Find the Spy (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

TASK = Task(
    "find-the-spy", "accuracy", "Spy named by the solver (Table 8's FtS)",
    {"accuracy_spy": "As spy", "accuracy_civilian": "As civ."},
    table8("find-the-spy"),
    "descriptions written by LLMs; ours are generated from our bank (easier) unless "
    "imported: --preset passive", ("chance", "chance (one of four at random)"), preset="passive")
