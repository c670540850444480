"""Fake OpenAI-compatible and Anthropic servers: the same scripted HTTP server speaking each
API's JSON shapes (chat completions at /v1/chat/completions, messages at /v1/messages)."""

from __future__ import annotations

from typing import Any

from tests.fakes.http import FakeServer, Reply, Request, Status, estimate_tokens


class FakeOpenAI(FakeServer):
    """OpenAI chat completions (and any OpenAI-compatible server: vLLM, Ollama, llama.cpp).
    The client's base_url is `server.url + "/v1"`."""

    completion_path = "/v1/chat/completions"

    @property
    def base_url(self) -> str:
        return self.url + "/v1"

    def completion_json(self, request: Request, reply: Reply) -> dict[str, Any]:
        body = request.body or {}
        prompt = reply.prompt_tokens if reply.prompt_tokens is not None else \
            estimate_tokens(body.get("messages", []))
        completion = reply.completion_tokens if reply.completion_tokens is not None else \
            estimate_tokens(reply.text)
        return {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0,
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": reply.text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion,
                      "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}},
        }


class FakeAnthropic(FakeServer):
    """Anthropic messages API. The client's base_url is `server.url` (it appends /v1/messages)."""

    completion_path = "/v1/messages"
    model_ids = ("claude-fake",)

    @property
    def base_url(self) -> str:
        return self.url

    def completion_json(self, request: Request, reply: Reply) -> dict[str, Any]:
        body = request.body or {}
        prompt = reply.prompt_tokens if reply.prompt_tokens is not None else \
            estimate_tokens([body.get("system", ""), body.get("messages", [])])
        completion = reply.completion_tokens if reply.completion_tokens is not None else \
            estimate_tokens(reply.text)
        # Anthropic reports cache reads apart from (not inside) input_tokens.
        return {
            "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant",
            "model": body.get("model", "claude-fake"),
            "content": [{"type": "text", "text": reply.text}],
            "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": prompt - reply.cached_tokens, "output_tokens": completion,
                      "cache_read_input_tokens": reply.cached_tokens,
                      "cache_creation_input_tokens": 0},
        }

    def error_json(self, status: Status) -> dict[str, Any]:
        return {"type": "error", "error": {"type": "scripted_error", "message": status.message}}

    def models_json(self) -> dict[str, Any]:
        return {"data": [{"id": m, "type": "model", "display_name": m,
                          "created_at": "2025-01-01T00:00:00Z"} for m in self.model_ids],
                "has_more": False, "first_id": None, "last_id": None}
