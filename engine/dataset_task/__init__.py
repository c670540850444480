"""The kit behind SocialMaze's dataset tasks (rating-estimation, review-decision,
user-profile): an instance is evidence shown in stages and an answer of one or more fields; the
game reveals a stage, takes an answer, and scores it by exact match as the paper does. Each task
package describes itself with a `DatasetTask` (task.py) and reuses the rest: instance and files
(instance.py, files.py), config, rules, text, metrics and the env base class."""
