"""Protocol v1: JSON messages over websockets. The single schema shared by server and clients.

Every message is an object {"v": 1, "type": ..., "id": ...}. Clients send requests with an `id` of
their choosing; replies and errors carry it back as `ref`. This module has no dependency on the
engine or the store so the TUI can import it alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.jsontext import dumps, dumps_bytes

VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024
MAX_NAME_CHARS = 40
MAX_ACTION_CHARS = 4000

# Client -> server: type -> {field: (python types, required)}
CLIENT_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"name": ((str,), True), "token": ((str,), False)},
    "list_tables": {},
    "list_envs": {},
    "create_table": {"env": ((str,), True), "preset": ((str,), False),
                     "config": ((dict,), False), "seats": ((list,), True),
                     "seed": ((int,), False), "join_seat": ((int,), False),
                     "on_bot_failure": ((str,), False), "on_timeout": ((str,), False),
                     "players": ((int,), False)},
    "join": {"table_id": ((str,), True), "seat": ((int,), False)},
    "spectate": {"table_id": ((str,), True)},
    "act": {"table_id": ((str,), True), "turn": ((int,), True), "action": ((str, dict), True)},
    "leave": {"table_id": ((str,), True)},
    "resume": {"table_id": ((str,), True)},
    "leaderboard": {"env": ((str,), True)},
    "history": {"table_id": ((str,), True), "since": ((int,), False), "limit": ((int,), False)},
}

SERVER_MESSAGES = ("welcome", "envs", "tables", "table", "your_turn", "event", "game_over",
                   "leaderboard", "history", "error")

# Error codes (docs/protocol.md explains each).
BAD_JSON = "bad_json"
TOO_LARGE = "too_large"
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
BAD_VERSION = "bad_version"
NOT_HELLO = "hello_required"
NAME_TAKEN = "name_taken"
UNKNOWN_TABLE = "unknown_table"
UNKNOWN_ENV = "unknown_env"
BAD_CONFIG = "bad_config"
BAD_SEAT = "bad_seat"
SEAT_TAKEN = "seat_taken"
NOT_SEATED = "not_seated"
NOT_YOUR_TURN = "not_your_turn"
STALE_TURN = "stale_turn"
GAME_OVER = "game_over"
BAD_ACTION = "bad_action"
INTERNAL = "internal"


class ProtocolError(Exception):
    """A request the server refuses; becomes an `error` reply. The connection stays open."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


@dataclass(frozen=True)
class Request:
    type: str
    id: Any
    body: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.body[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.body.get(key, default)


def parse_client_message(raw: str | bytes) -> Request:
    """Validate one client message; raise ProtocolError with a precise code and message."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"message of {len(raw)} bytes exceeds the limit of "
                                       f"{MAX_MESSAGE_BYTES}")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(BAD_JSON, f"not valid JSON: {exc}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_MESSAGE, "a message must be a JSON object")
    ref = msg.get("id")
    if msg.get("v") != VERSION:
        raise ProtocolError(BAD_VERSION, f"protocol version must be {VERSION}, got "
                                         f"{msg.get('v')!r}", ref)
    kind = msg.get("type")
    if kind not in CLIENT_MESSAGES:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {kind!r}; valid types: "
                                          f"{', '.join(CLIENT_MESSAGES)}", ref)
    schema = CLIENT_MESSAGES[kind]
    body = {k: v for k, v in msg.items() if k not in ("v", "type", "id")}
    for name, (types, required) in schema.items():
        if name not in body:
            if required:
                raise ProtocolError(BAD_MESSAGE, f"{kind} needs the field {name!r}", ref)
            continue
        value = body[name]
        if isinstance(value, bool) or not isinstance(value, types):
            wanted = " or ".join(t.__name__ for t in types)
            raise ProtocolError(BAD_MESSAGE, f"{kind}.{name} must be {wanted}", ref)
    extra = sorted(set(body) - set(schema))
    if extra:
        raise ProtocolError(BAD_MESSAGE, f"{kind} has unknown field(s) {', '.join(extra)}", ref)
    if kind == "hello" and not 0 < len(body["name"].strip()) <= MAX_NAME_CHARS:
        raise ProtocolError(BAD_MESSAGE, f"name must be 1..{MAX_NAME_CHARS} characters", ref)
    if kind == "act" and isinstance(body["action"], str) and len(body["action"]) > MAX_ACTION_CHARS:
        raise ProtocolError(TOO_LARGE, f"action text exceeds {MAX_ACTION_CHARS} characters", ref)
    return Request(kind, ref, body)


def message(type: str, ref: Any = None, **body: Any) -> dict[str, Any]:
    """Build a server message (or, with a client type, a client request)."""
    msg: dict[str, Any] = {"v": VERSION, "type": type}
    if ref is not None:
        msg["ref"] = ref
    msg.update(body)
    return msg


def request(type: str, id: Any = None, **body: Any) -> dict[str, Any]:
    """Build a client request (what the TUI and test clients send)."""
    msg: dict[str, Any] = {"v": VERSION, "type": type}
    if id is not None:
        msg["id"] = id
    msg.update(body)
    return msg


def error(code: str, text: str, ref: Any = None) -> dict[str, Any]:
    return message("error", ref, code=code, message=text)


def encode(msg: Mapping[str, Any]) -> str:
    return dumps(msg)


def encode_bytes(msg: Mapping[str, Any]) -> bytes:
    """`encode`, UTF-8 encoded: what a websocket text frame carries."""
    return dumps_bytes(msg)


def decode_server_message(raw: str | bytes) -> dict[str, Any]:
    """Parse a server message on the client side; raise ValueError if it is not one."""
    msg = json.loads(raw)
    if not isinstance(msg, dict) or msg.get("v") != VERSION or msg.get("type") not in \
            SERVER_MESSAGES:
        raise ValueError(f"not a protocol v{VERSION} server message: {str(raw)[:200]}")
    return msg
