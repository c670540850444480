"""What the SocialMaze paper published for Find the Spy (spec socialmaze §9 Table 8),
shown beside our accuracies in `parlor league maze` and `parlor maze report`."""

from __future__ import annotations

from engine.socialmaze_published import Task

# Table 8's FtS column, accuracy %.
TABLE8 = {
    "Llama-3.1-8B": 37.2,
    "Llama-3.3-70B": 60.0,
    "Phi-4": 45.2,
    "Qwen-2.5-72B": 48.9,
    "QwQ-32B": 50.2,
    "GPT-4o-mini": 61.2,
    "GPT-4o": 69.2,
    "o3-mini": 74.0,
    "o1": 78.4,
    "DeepSeek-R1": 70.2,
    "Gemini-2.5-Pro": 76.6,
    "Human (avg.)": 84.4,
}

TASK = Task(
    "find-the-spy", "accuracy", "Spy named by the solver (Table 8's FtS)",
    {"accuracy_spy": "As spy", "accuracy_civilian": "As civ."},
    TABLE8,
    "descriptions written by LLMs; ours are generated from our bank (easier) unless "
    "imported: --preset passive", ("chance", "chance (one of four at random)"), preset="passive")
