"""Local fake provider servers (OpenAI-compatible and Anthropic) for tests without internet."""

from tests.fakes.http import Drop, FakeServer, Raw, Reply, Request, Status
from tests.fakes.providers import FakeAnthropic, FakeOpenAI

__all__ = ["Drop", "FakeAnthropic", "FakeOpenAI", "FakeServer", "Raw", "Reply", "Request",
           "Status"]
