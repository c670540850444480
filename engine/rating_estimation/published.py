"""What the SocialMaze paper published for Rating Estimation (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task

# Table 8's Rating column, accuracy %.
TABLE8 = {
    "Llama-3.1-8B": 57.2,
    "Llama-3.3-70B": 74.8,
    "Phi-4": 60.4,
    "Qwen-2.5-72B": 72.2,
    "QwQ-32B": 74.4,
    "GPT-4o-mini": 75.8,
    "GPT-4o": 76.0,
    "o3-mini": 71.2,
    "o1": 76.2,
    "DeepSeek-R1": 71.0,
    "Gemini-2.5-Pro": 73.6,
    "Human (avg.)": 75.2,
}

TASK = Task(
    "rating-estimation", "accuracy", "Exact rating (Table 8's Rating)", {},
    TABLE8,
    "the authors' data, labels 1:3:10:73:13; ours is a synthetic sample unless imported",
    ("majority_baseline", "majority class (always the most common true rating)"))
