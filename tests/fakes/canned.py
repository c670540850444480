"""A provider answering in this process, without HTTP or an SDK: for tests and benchmarks that
look at Parlor's side of a decision only. It imports nothing from tests/, so a benchmark can load
it beside another checkout's code (benchmarks/prompt_pace.py --root)."""

from __future__ import annotations

from typing import Any

from bots.llm.providers import Completion, Provider


class CannedProvider(Provider):
    """Answers every call with `reply` (set it before each decision)."""

    reply = ""

    def _make_client(self) -> Any:
        return None

    async def _create(self, system: str, messages: list[dict[str, str]],
                      params: dict[str, Any]) -> Any:
        return self.reply

    def _read(self, response: Any) -> Completion:
        return Completion(response, 1, 1, 0, "stop", 0.0)
