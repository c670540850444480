"""One game's metrics as the tests of an env's metrics want them: checked to be JSON and to have
a plain label for every key."""

from __future__ import annotations

import json
from typing import Any

from engine.conformance import check_metric_labels
from engine.core import Env, GameRecord


def checked_metrics(env: Env, record: GameRecord) -> dict[str, Any]:
    metrics = env.game_metrics(record)
    json.dumps(metrics)
    check_metric_labels(env, metrics)
    return metrics
