"""The synthetic samples shipped beside each dataset task are what our generator writes
(`parlor maze generate --task TASK --count 12`), labelled synthetic, and load without a problem.
After a change to a generator, write them again with that command (`--out ... --force`)."""

from importlib import resources

import pytest

from engine.dataset_task.files import dumps, read
from engine.registry import get

TASKS = ("rating-estimation", "review-decision", "user-profile")


@pytest.mark.parametrize("task", TASKS)
def test_the_shipped_sample_is_the_generators(task):
    env = get(task)
    data = resources.files(f"engine.{task.replace('-', '_')}").joinpath(
        "sample.jsonl").read_bytes()
    loaded = read(env.task, data, "sample.jsonl")
    assert not loaded.problems and len(loaded.instances) == 12
    assert all(i.synthetic and i.source == "synthetic (parlor generator)"
               and i.id.startswith("synthetic-") for i in loaded.instances)
    config = env.presets[env.default_preset]
    expected = "".join(dumps(env.task.generate(seed, config)) + "\n" for seed in range(12))
    assert data.decode("utf-8") == expected
