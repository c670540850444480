"""Review Decision Prediction (SocialMaze, spec socialmaze §7): registers `review-decision`, a
one-seat task in three stages played with the dataset-task kit (engine/dataset_task): our
synthetic papers (synthetic.py) or instances from a file in our JSONL or the authors' release
format (task.py)."""

from engine.registry import register
from engine.review_decision.env import ReviewDecisionEnv

register(ReviewDecisionEnv())

__all__ = ["ReviewDecisionEnv"]
