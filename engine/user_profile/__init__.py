"""User Profile Inference (SocialMaze, spec socialmaze §8): registers `user-profile`, a
one-seat task played with the dataset-task kit (engine/dataset_task): our synthetic comments
(synthetic.py) or instances from a file in our JSONL or the authors' release files (task.py)."""

from engine.registry import register
from engine.user_profile.env import UserProfileEnv

register(UserProfileEnv())

__all__ = ["UserProfileEnv"]
