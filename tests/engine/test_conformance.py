"""Every registered environment passes the same API conformance suite."""

import pytest

from engine.conformance import check_env
from engine.registry import all_envs


@pytest.mark.parametrize("env", all_envs(), ids=lambda e: e.id)
def test_env_conforms(env):
    check_env(env)
