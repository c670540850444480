"""Protocol v1: JSON messages over websockets. The single schema shared by server and clients.

Every message is an object {"v": 1, "type": ..., "id": ...}. Clients send requests with an `id` of
their choosing; replies and errors carry it back as `ref`. This module has no dependency on the
engine or the store so the TUI can import it alone.
"""

from __future__ import annotations

import json
import math
import re
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from server.wire.jsontext import dumps, dumps_bytes, loads

VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024  # a message's UTF-8 text
MAX_DEPTH = 32  # arrays and objects inside one another
MAX_SAFE_INT = 2**53 - 1  # any integer anywhere in a message (JavaScript's safe integers)
MAX_NUMBER_CHARS = 32  # characters of a number literal
MAX_ID_CHARS = 64  # a request id
MAX_NAME_CHARS = 40
MAX_TOKEN_CHARS = 200
MAX_TABLE_ID_CHARS = 64
MAX_WORD_CHARS = 64  # env ids, presets, policy names, action field names
MAX_INSTANCE_ID_CHARS = 200  # a stored SocialMaze instance's id or source (server/store/instances.py)
MAX_SPEC_CHARS = 300  # a seat spec (an openai-compatible spec names a URL)
MAX_SEATS = 64
MAX_SEAT = 999  # seat indices 0..MAX_SEAT
MAX_ACTION_CHARS = 4000  # action text, and each text value of a structured action
MAX_ACTION_FIELDS = 64  # entries of a structured action
MAX_HISTORY_PAGE = 200
MAX_INVITE_CHARS = 64
MAX_REASON_CHARS = 200  # a host's reason for closing a table or removing a seat
MAX_FORM_ANSWERS = 12  # a study's demographics form (server/store/study.py)
MAX_ANSWER_CHARS = 500  # each answer of the form
ADMIN_ACTIONS = ("tables", "close_table", "kick")
# `report`: whose games are pooled (absent: all of them) and whether rows are per player or per
# kind of player (absent: per player).
REPORT_POOLS = ("people", "bots", "mixed")
REPORT_BY = ("identity", "kind")


class _Refusal(Exception):
    """A field that fails its check: becomes a ProtocolError naming the field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Check = Callable[[Any, str], None]  # (value, field name) -> None, or raise _Refusal


def _text(max_chars: int, min_chars: int = 1, *, strip: bool = False) -> Check:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, str):
            raise _Refusal(BAD_MESSAGE, f"{where} must be a string")
        size = len(value.strip()) if strip else len(value)
        if not min_chars <= size <= max_chars:
            raise _Refusal(BAD_MESSAGE, f"{where} must be {min_chars}..{max_chars} characters")
    return check


def _int(low: int, high: int = MAX_SAFE_INT) -> Check:
    def check(value: Any, where: str) -> None:
        if value.__class__ is not int:  # bool is not an int here
            raise _Refusal(BAD_MESSAGE, f"{where} must be an integer")
        if not low <= value <= high:
            raise _Refusal(BAD_MESSAGE, f"{where} must be in {low}..{high}")
    return check


def _bool(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise _Refusal(BAD_MESSAGE, f"{where} must be true or false")


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(value: Any, where: str) -> None:
        if value not in choices:
            raise _Refusal(BAD_MESSAGE, f"{where} must be one of {', '.join(choices)}")
    return check


def _object(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise _Refusal(BAD_MESSAGE, f"{where} must be an object")


def _specs(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise _Refusal(BAD_MESSAGE, f"{where} must be a list of seat specs")
    if len(value) > MAX_SEATS:
        raise _Refusal(BAD_MESSAGE, f"{where} may hold at most {MAX_SEATS} seats")
    spec = _text(MAX_SPEC_CHARS)
    for i, item in enumerate(value):
        spec(item, f"{where}[{i}]")


def _hash_hex(value: Any, where: str) -> None:
    if not isinstance(value, str) or len(value) != 64 or \
            value.strip("0123456789abcdef") != "":
        raise _Refusal(BAD_MESSAGE, f"{where} must be a sha256 in 64 lowercase hex digits")


def _answers(value: Any, where: str) -> None:
    """A study form's answers: field id -> text, number or null (the study checks each)."""
    if not isinstance(value, dict):
        raise _Refusal(BAD_MESSAGE, f"{where} must be an object of field answers")
    _flat_fields(value, where, MAX_FORM_ANSWERS, MAX_ANSWER_CHARS, booleans=False)


def _action(value: Any, where: str) -> None:
    """Text in the env's syntax, or a flat object of scalar values (a choice, a form)."""
    if isinstance(value, str):
        if len(value) > MAX_ACTION_CHARS:
            raise _Refusal(TOO_LARGE, f"{where} text exceeds {MAX_ACTION_CHARS} characters")
        return
    if not isinstance(value, dict):
        raise _Refusal(BAD_MESSAGE, f"{where} must be text or an object of field values")
    _flat_fields(value, where, MAX_ACTION_FIELDS, MAX_ACTION_CHARS, booleans=True)


def _flat_fields(value: dict[str, Any], where: str, max_fields: int, max_chars: int, *,
                 booleans: bool) -> None:
    """An object of at most `max_fields` named scalars: strings of at most `max_chars`,
    numbers, null, and booleans if allowed."""
    if len(value) > max_fields:
        raise _Refusal(TOO_LARGE, f"{where} has more than {max_fields} fields")
    scalars = (bool, int, float) if booleans else (int, float)
    for key, item in value.items():
        if not 0 < len(key) <= MAX_WORD_CHARS:
            raise _Refusal(BAD_MESSAGE, f"{where} field names must be 1..{MAX_WORD_CHARS} "
                                        f"characters")
        if isinstance(item, str):
            if len(item) > max_chars:
                raise _Refusal(TOO_LARGE, f"{where}.{key} exceeds {max_chars} characters")
        elif item is not None and (not isinstance(item, scalars) or
                                   (not booleans and isinstance(item, bool))):
            raise _Refusal(BAD_MESSAGE, f"{where}.{key} must be a string, number, "
                                        f"{'boolean ' if booleans else ''}or null")


_TABLE_ID = _text(MAX_TABLE_ID_CHARS)
_WORD = _text(MAX_WORD_CHARS)
_SEAT = _int(0, MAX_SEAT)

# Client -> server: type -> {field: (check, required)}
CLIENT_MESSAGES: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {"name": (_text(MAX_NAME_CHARS, strip=True), True),
              "token": (_text(MAX_TOKEN_CHARS), False),
              "invite": (_text(MAX_INVITE_CHARS), False)},
    "list_tables": {"env": (_WORD, False), "status": (_WORD, False),
                    "after": (_TABLE_ID, False), "limit": (_int(1, 1000), False)},
    "list_envs": {},
    "create_table": {"env": (_WORD, True), "preset": (_WORD, False),
                     "config": (_object, False), "seats": (_specs, True),
                     "seed": (_int(-MAX_SAFE_INT), False), "join_seat": (_SEAT, False),
                     "on_bot_failure": (_WORD, False), "on_timeout": (_WORD, False),
                     "players": (_int(1, MAX_SEAT + 1), False),
                     "instance": (_text(MAX_INSTANCE_ID_CHARS), False),
                     "instance_source": (_text(MAX_INSTANCE_ID_CHARS), False),
                     "instance_random": (_bool, False)},
    "list_instances": {"env": (_WORD, True), "after": (_text(MAX_INSTANCE_ID_CHARS), False),
                       "after_source": (_text(MAX_INSTANCE_ID_CHARS), False),
                       "source": (_text(MAX_INSTANCE_ID_CHARS), False),
                       "limit": (_int(1, 500), False)},
    "join": {"table_id": (_TABLE_ID, True), "seat": (_SEAT, False)},
    "spectate": {"table_id": (_TABLE_ID, True)},
    "act": {"table_id": (_TABLE_ID, True), "turn": (_int(0), True), "action": (_action, True)},
    # What the rules would say of a draft of one's own move, without making it.
    "preview": {"table_id": (_TABLE_ID, True), "turn": (_int(0), True),
                "action": (_action, True)},
    "leave": {"table_id": (_TABLE_ID, True)},
    "resume": {"table_id": (_TABLE_ID, True)},
    "leaderboard": {"env": (_WORD, True), "scheme": (_WORD, False)},
    # One env's comparison of people and bots on its paper's metrics (server/reports/
    # report_reply.py), and a player's profile (absent name: the asker's own).
    "report": {"env": (_WORD, True), "pool": (_one_of(REPORT_POOLS), False),
               "by": (_one_of(REPORT_BY), False)},
    "profile": {"name": (_text(MAX_SPEC_CHARS, strip=True), False)},
    "history": {"table_id": (_TABLE_ID, True), "since": (_int(0), False),
                "limit": (_int(1, MAX_HISTORY_PAGE), False)},
    # Study mode (`parlor serve --study`): the study's consent text and form, and a person's
    # answer to the text whose hash they read (docs/protocol.md, "Study mode").
    "study": {},
    "consent": {"consent_hash": (_hash_hex, True), "agree": (_bool, True),
                "answers": (_answers, False)},
    # The host's requests (server/net/admin.py): `token` is the admin token; no hello needed.
    "admin": {"token": (_text(MAX_TOKEN_CHARS), True), "action": (_WORD, True),
              "table_id": (_TABLE_ID, False), "seat": (_SEAT, False),
              "reason": (_text(MAX_REASON_CHARS), False)},
    # A stored game (`game_id`) or a table's game (`table_id`) watched again from one seat
    # (absent: the omniscient perspective), at frame position `at` (docs/protocol.md,
    # "Replays"; past the end: the last frame).
    "replay": {"game_id": (_int(1), False), "table_id": (_TABLE_ID, False),
               "seat": (_SEAT, False), "at": (_int(0), False)},
}
# Fields of which a message must carry exactly one.
EXACTLY_ONE_OF: dict[str, tuple[str, ...]] = {"replay": ("game_id", "table_id")}

SERVER_MESSAGES = ("welcome", "envs", "tables", "table", "your_turn", "event", "game_over",
                   "leaderboard", "history", "admin", "instances", "preview", "study",
                   "report", "profile", "replay", "error")

# Error codes (docs/protocol.md explains each).
BAD_JSON = "bad_json"
TOO_LARGE = "too_large"
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
BAD_VERSION = "bad_version"
NOT_HELLO = "hello_required"
NAME_TAKEN = "name_taken"
NAME_FIXED = "name_fixed"  # a hello with another name on a connection that said hello already
BAD_NAME = "bad_name"  # a name with invisible or direction-changing characters
UNKNOWN_TABLE = "unknown_table"
TABLE_GONE = "table_gone"  # a table a previous run of this server had
UNKNOWN_ENV = "unknown_env"
UNKNOWN_INSTANCE = "unknown_instance"  # create_table.instance names no stored instance (or
# instance_random finds none to draw)
BAD_CONFIG = "bad_config"
BAD_SEAT = "bad_seat"
SEAT_TAKEN = "seat_taken"
NOT_SEATED = "not_seated"
NOT_YOUR_TURN = "not_your_turn"
STALE_TURN = "stale_turn"
GAME_OVER = "game_over"
BAD_ACTION = "bad_action"
INTERNAL = "internal"
TOO_DEEP = "too_deep"
BAD_TEXT = "bad_text"
BAD_NUMBER = "bad_number"
RATE_LIMITED = "rate_limited"  # more messages than the server's rate: this one was not read
LIMIT = "limit"  # a host limit (open tables, new names per address, LLM seats) was reached
INVITE_REQUIRED = "invite_required"  # a new name on an invite-only server, with no invite
BAD_INVITE = "bad_invite"  # an invite that is not the server's, or used already
FORBIDDEN = "forbidden"  # a wrong admin token; a seat the host removed you from
CONSENT_REQUIRED = "consent_required"  # study mode: a seat for a person who has not agreed to
# the study's current consent text (or a `consent` answering a text that is not the current one)
NO_STUDY = "no_study"  # `study` or `consent` on a server that runs no study
BAD_ANSWER = "bad_answer"  # a study form answer that does not fit its field (named)
UNKNOWN_PLAYER = "unknown_player"  # a profile of a name no leaderboard shows
UNAVAILABLE = "unavailable"  # a request this server was started without the means to answer
UNKNOWN_GAME = "unknown_game"  # a replay of a game this database does not have (or of a table
# whose game has not begun)
REPLAY_MISMATCH = "replay_mismatch"  # a replay whose rebuild differs from the stored game


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
    """Validate one client message; raise ProtocolError with a precise code and message.

    In order: size, UTF-8, nesting depth (a scan of the text, before any parsing), JSON, the
    request id, every string (no lone surrogates) and number (|n| <= MAX_SAFE_INT: a huge
    literal is never converted) anywhere in it, then the version, type and each field's type
    and range. Nothing refused here reaches a table."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"message of {size} bytes exceeds the limit of "
                                       f"{MAX_MESSAGE_BYTES}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(BAD_JSON, f"not valid UTF-8 text: {exc.reason} at byte "
                                          f"{exc.start}") from None
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise ProtocolError(TOO_DEEP, f"arrays and objects nest deeper than {MAX_DEPTH}")
    checked = _read_plain(raw)
    if checked is None:
        try:
            if raw.startswith("\ufeff"):  # as json.loads, which would make a decoder per call
                raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw,
                                           0)
            msg = _DECODER.decode(raw)
        except ValueError as exc:  # JSONDecodeError; a lone surrogate in UTF-8 text
            raise ProtocolError(BAD_JSON, f"not valid JSON: {_clip(str(exc))}") from None
    else:
        msg = checked
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_MESSAGE, "a message must be a JSON object")
    ref = msg.get("id")
    try:
        _check_id(ref)
    except _Refusal as exc:
        raise ProtocolError(exc.code, exc.message) from None
    kind = msg.get("type")
    prefix = kind if isinstance(kind, str) and kind in CLIENT_MESSAGES else "message"
    try:
        if checked is None:
            _check_values(msg, prefix)
    except _Refusal as exc:
        raise ProtocolError(exc.code, exc.message, ref) from None
    version = msg.get("v")
    if version.__class__ is not int or version != VERSION:  # not true, not 1.0
        raise ProtocolError(BAD_VERSION, f"protocol version must be {VERSION}, got "
                                         f"{_clip(repr(version))}", ref)
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:  # a list is unhashable
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {_clip(repr(kind))}; valid "
                                          f"types: {', '.join(CLIENT_MESSAGES)}", ref)
    schema = CLIENT_MESSAGES[kind]
    body = {k: v for k, v in msg.items() if k not in ("v", "type", "id")}
    extra = sorted(set(body) - set(schema))
    if extra:
        raise ProtocolError(BAD_MESSAGE, f"{kind} has unknown field(s) "
                                         f"{_clip(', '.join(extra))}", ref)
    for name, (check, required) in schema.items():
        if name not in body:
            if required:
                raise ProtocolError(BAD_MESSAGE, f"{kind} needs the field {name!r}", ref)
            continue
        try:
            check(body[name], f"{kind}.{name}")
        except _Refusal as exc:
            raise ProtocolError(exc.code, exc.message, ref) from None
    one_of = EXACTLY_ONE_OF.get(kind)
    if one_of and sum(name in body for name in one_of) != 1:
        raise ProtocolError(BAD_MESSAGE, f"{kind} needs exactly one of the fields "
                                         f"{', '.join(one_of)}", ref)
    return Request(kind, ref, body)


_BRACKETS_AND_QUOTES = re.compile(r'["\\\[\]{}]')


def _depth(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings do not count),
    found by one pass over its brackets and quotes: no parser recursion. Stops past MAX_DEPTH."""
    depth = deepest = 0
    in_string = False
    escaped = -1  # the index of a character a backslash escapes
    for match in _BRACKETS_AND_QUOTES.finditer(text):
        i = match.start()
        if i == escaped:
            continue
        c = text[i]
        if in_string:
            if c == "\\":
                escaped = i + 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif c in "]}":
            depth -= 1
    return deepest


class _BadNumber:
    """Stands in for a number the protocol refuses, so the refusal can name its field."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _parse_int(literal: str) -> int | _BadNumber:
    # Checked before conversion: Python refuses (slowly) to convert over 4,300 digits.
    if len(literal) > MAX_NUMBER_CHARS:
        return _BadNumber(literal)
    value = int(literal)
    return value if -MAX_SAFE_INT <= value <= MAX_SAFE_INT else _BadNumber(literal)


def _parse_float(literal: str) -> float | _BadNumber:
    if len(literal) > MAX_NUMBER_CHARS:
        return _BadNumber(literal)
    value = float(literal)
    return value if math.isfinite(value) else _BadNumber(literal)


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                            parse_constant=_BadNumber)
# Text with a number literal that might be refused: more digits in a row than MAX_SAFE_INT has,
# or more number characters in a row than MAX_NUMBER_CHARS (strings may match too: they then
# go the slow way, which is always right).
_MAYBE_REFUSED_NUMBER = re.compile(f"[0-9]{{{len(str(MAX_SAFE_INT))}}}|"
                                   f"[-+.eE0-9]{{{MAX_NUMBER_CHARS + 1}}}")


def _read_plain(raw: str) -> Any:
    """Most messages, read fast: the value `_DECODER` would read, known to pass
    `_check_values`; None for any other text (then read it the slow way). orjson reads no lone
    surrogate, NaN or infinite number (it refuses them), and the text has no number literal
    that might be refused (checked first), so all it reads passes, and reads as the standard
    library reads it."""
    if _MAYBE_REFUSED_NUMBER.search(raw) is not None:
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None


def _check_id(ref: Any) -> None:
    if ref is None or (ref.__class__ is int and -MAX_SAFE_INT <= ref <= MAX_SAFE_INT):
        return
    if isinstance(ref, str) and len(ref) <= MAX_ID_CHARS and _is_text(ref):
        return
    raise _Refusal(BAD_MESSAGE, f"id must be an integer, a string of at most {MAX_ID_CHARS} "
                                f"characters, or absent")


def _check_values(value: Any, where: str) -> None:
    """Every string is Unicode text and every number in range, wherever it sits (recursion is
    bounded: the depth was checked before parsing). The refusal names the value's place, a
    path written only then: every message is checked, so the check must cost little."""
    try:
        _find_bad(value)
    except _Bad as bad:
        at = where + "".join(reversed(bad.path))
        if bad.in_key:
            raise _Refusal(BAD_TEXT, f"a field name in {at} is not valid Unicode text "
                                     f"(a lone surrogate)") from None
        if isinstance(bad.value, _BadNumber):
            raise _Refusal(BAD_NUMBER, f"{at} is a number out of range (a literal of "
                                       f"{len(bad.value.literal)} characters; numbers must be "
                                       f"finite, integers within ±{MAX_SAFE_INT}, literals at "
                                       f"most {MAX_NUMBER_CHARS} characters)") from None
        raise _Refusal(BAD_TEXT, f"{at} is not valid Unicode text (a lone surrogate)") from None


class _Bad(Exception):
    """A value `_check_values` refuses; `path` grows (innermost first) as it goes up."""

    def __init__(self, value: Any, in_key: bool = False) -> None:
        self.value = value
        self.in_key = in_key  # a field name of the object at `path`
        self.path: list[str] = []


_FINE = frozenset((int, float, bool, type(None)))  # what the decoder makes of an allowed number


def _find_bad(value: Any) -> None:
    if value.__class__ in _FINE:
        return
    if isinstance(value, str):
        if not _is_text(value):
            raise _Bad(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not (key.isascii() or _is_text(key)):
                raise _Bad(key, in_key=True)
            if item.__class__ in _FINE or (item.__class__ is str and item.isascii()):
                continue  # the common case, without a call
            try:
                _find_bad(item)
            except _Bad as bad:
                bad.path.append(f".{_clip(key, 40)}")
                raise
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if item.__class__ in _FINE or (item.__class__ is str and item.isascii()):
                continue
            try:
                _find_bad(item)
            except _Bad as bad:
                bad.path.append(f"[{i}]")
                raise
    elif isinstance(value, _BadNumber):
        raise _Bad(value)


def _is_text(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _clip(text: str, limit: int = 80) -> str:
    """A refused value quoted back, never longer than `limit`."""
    return text if len(text) <= limit else text[:limit] + "..."


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


def client_ssl(url: str, cafile: str | None = None) -> ssl.SSLContext | None:
    """What a client trusts for a wss:// server: the system's certificates, or those in
    `cafile` (a host's own CA or self-signed certificate). None for ws://."""
    if not url.startswith("wss://"):
        return None
    return ssl.create_default_context(cafile=cafile)


def players_text(counts: list[int] | tuple[int, ...]) -> str:
    """How an env's player counts read (`envs`' `players`): "3", "2/4", or "1-10" for a run."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return "/".join(map(str, counts))


def decode_server_message(raw: str | bytes) -> dict[str, Any]:
    """Parse a server message on the client side; raise ValueError if it is not one."""
    msg = loads(raw)  # every message a client reads: orjson's speed counts
    if not isinstance(msg, dict) or msg.get("v") != VERSION or msg.get("type") not in \
            SERVER_MESSAGES:
        raise ValueError(f"not a protocol v{VERSION} server message: {str(raw)[:200]}")
    return msg


def plain_label(key: str, labels: Mapping[str, str] | None = None) -> str:
    """`labels[key]` (an env's `metric_labels`), else the key in words: "invalid_rate" ->
    "Invalid rate". Result screens and `parlor sim` name metrics by it."""
    if labels and isinstance(labels.get(key), str):
        return labels[key]
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else key
