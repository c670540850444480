"""Local fake provider servers for the LLM tests of this folder (real clients, no internet)."""

import pytest

from tests.fakes import FakeAnthropic, FakeOpenAI


@pytest.fixture
def fo():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fa():
    with FakeAnthropic() as server:
        yield server
