"""Rating Estimation from Text (SocialMaze, spec socialmaze §5): registers `rating-estimation`,
a one-seat task played with the dataset-task kit (engine/dataset_task): our synthetic products
(synthetic.py) or instances from a file in our JSONL or the authors' release format (task.py)."""

from engine.rating_estimation.env import RatingEstimationEnv
from engine.registry import register

register(RatingEstimationEnv())

__all__ = ["RatingEstimationEnv"]
