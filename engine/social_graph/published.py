"""What the SocialMaze paper published for Social Graph Analysis (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task

# Table 8's SGA column, accuracy % ("–" for the human baseline: the paper has none).
TABLE8 = {
    "Llama-3.1-8B": 28.2,
    "Llama-3.3-70B": 81.0,
    "Phi-4": 40.6,
    "Qwen-2.5-72B": 80.6,
    "QwQ-32B": 95.0,
    "GPT-4o-mini": 53.0,
    "GPT-4o": 83.2,
    "o3-mini": 99.0,
    "o1": 99.2,
    "DeepSeek-R1": 98.6,
    "Gemini-2.5-Pro": 100.0,
    "Human (avg.)": None,
}

TASK = Task(
    "social-graph", "mean_accuracy", "Mean accuracy over the four query types (Table 8's "
    "SGA)", {"pairwise": "Pairwise", "membership": "Members", "group_count": "Groups",
             "pair_count": "Pairs"},
    TABLE8,
    "the hard set (14-16 people): compare --preset hard")
