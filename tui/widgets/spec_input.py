"""The spec of an LLM bot for one seat, checked as it is typed.

Only the shape is checked here (provider, model, server URL, settings as key=value); whether
the model exists, the settings are known and a key is set is the server's to say when the
table is created. The forms are those of docs/protocol.md (`openai:<model>`,
`anthropic:<model>`, `openai-compatible:<model>@<base_url>`, each optionally `?k=v&...`)."""

from __future__ import annotations

import re

from textual.validation import ValidationResult, Validator
from textual.widgets import Input

PROVIDERS = ("openai", "anthropic", "openai-compatible")
EXAMPLE = "openai:gpt-4o-mini"
_URL = re.compile(r"^https?://\S+$")


def spec_problem(spec: str) -> str | None:
    """What is wrong with an LLM spec, in words; None when it is well formed."""
    spec = spec.strip()
    if not spec:
        return f"Type this seat's model, e.g. {EXAMPLE}"
    provider, colon, rest = spec.partition(":")
    if not colon or provider not in PROVIDERS:
        return (f"Start with openai:, anthropic: or openai-compatible: (e.g. {EXAMPLE}); "
                f"“{provider}” is not one of them")
    body, question, query = rest.partition("?")
    model, at, url = body.partition("@") if provider == "openai-compatible" else (body, "", "")
    if not model.strip():
        return f"Name the model after “{provider}:”, e.g. {provider}:MODEL"
    if any(c.isspace() for c in model):
        return "A model name has no spaces"
    if at and not _URL.match(url):
        return "After @ comes the model server's address: http://host:port/v1 or https://…"
    if question:
        for pair in query.split("&"):
            key, eq, _ = pair.partition("=")
            if not eq or not key:
                return "Settings after ? are key=value pairs joined by &, e.g. ?temperature=0.2"
    return None


class SpecValidator(Validator):
    def validate(self, value: str) -> ValidationResult:
        problem = spec_problem(value)
        return self.failure(problem) if problem else self.success()


class SpecInput(Input):
    """An Input for an LLM spec; its validation result says what is wrong, live."""

    def __init__(self, value: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(value, placeholder="openai:MODEL, anthropic:MODEL or "
                         "openai-compatible:MODEL@URL", validators=[SpecValidator()],
                         validate_on=["changed", "submitted"], id=id, classes=classes)

    @property
    def problem(self) -> str | None:
        return spec_problem(self.value)
