"""What the SocialMaze paper published for Hidden Role Deduction (spec socialmaze §9 Table 8,
§3 Table 2), shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task, table8

# Table 2: criminal accuracy % after rounds 1/2/3, 6-player Full.
CRIMINAL_BY_ROUND = {
    "Llama-3.3-70B": (37.6, 46.7, 46.5), "Qwen-2.5-72B": (31.3, 42.6, 50.3),
    "GPT-4o-mini": (33.5, 38.4, 46.5), "GPT-4o": (39.5, 53.3, 53.5),
    "o3-mini": (45.8, 51.2, 59.6), "QwQ-32B": (41.4, 63.5, 78.4),
    "DeepSeek-R1": (44.3, 72.3, 80.4), "o1": (42.5, 67.5, 76.6),
    "Gemini-2.5-Pro": (43.3, 74.3, 87.6),
}

TASK = Task(
    "hidden-role", "both", "Both right after the last round (Table 8's HRD)",
    {"crim": "Crim", "self": "Self", "crim_r1": "Crim r1", "crim_r2": "Crim r2",
     "crim_r3": "Crim r3"},
    table8("hidden-role"),
    "the released set, Player 1 drawn 3:2:60:35: compare --preset released-easy",
    ("deceived_baseline", "Self by always answering the deceived role"),
    breakdown_title="criminal after rounds 1/2/3 (Table 2)",
    breakdown=CRIMINAL_BY_ROUND)
