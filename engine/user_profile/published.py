"""What the SocialMaze paper published for User Profile Inference (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task

# Table 8's UPI column, accuracy % (the mean of its two query kinds).
TABLE8 = {
    "Llama-3.1-8B": 60.2,
    "Llama-3.3-70B": 78.6,
    "Phi-4": 62.4,
    "Qwen-2.5-72B": 68.0,
    "QwQ-32B": 72.2,
    "GPT-4o-mini": 74.4,
    "GPT-4o": 79.2,
    "o3-mini": 71.4,
    "o1": 77.0,
    "DeepSeek-R1": 74.6,
    "Gemini-2.5-Pro": 73.0,
    "Human (avg.)": 73.9,
}

TASK = Task(
    "user-profile", "mean_accuracy", "Both fields right, mean of the two query kinds "
    "(Table 8's UPI)", {"age_group_right": "Age", "gender_right": "Gender"},
    TABLE8,
    "LLM-written comments; ours is a synthetic sample unless imported",
    ("majority_baseline", "majority class (always the most common profile)"))
