"""JSON text for messages and stored columns, made fast: orjson where it can (about 12x the
standard library on a view-sized message, which made encoding the largest cost of a move), the
standard library where orjson refuses a value (an integer beyond 64 bits, a string holding a lone
surrogate, say), so every value the standard library writes is still written. The fallback
escapes all but ASCII (a lone surrogate stays an escape, \\ud800), so the text is always valid
UTF-8: a websocket frame any client can read, a column SQLite can store."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # int keys become strings, as with the standard library
_fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode


def _default(value: Any) -> Any:
    if isinstance(value, Mapping):  # e.g. a MappingProxyType an engine exposes read-only
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps_bytes(value: Any) -> bytes:
    """Compact JSON of `value`, UTF-8 encoded (what goes on the wire)."""
    try:
        # Keys are nearly always strings: orjson writes those a third faster without the
        # option that allows others (the same text), so it is asked for only when needed.
        return orjson.dumps(value, default=_default)
    except (TypeError, orjson.JSONEncodeError):
        pass
    try:
        return orjson.dumps(value, default=_default, option=_OPTIONS)
    except (TypeError, orjson.JSONEncodeError):
        return _fallback(value).encode("ascii")


def dumps(value: Any) -> str:
    """Compact JSON text of `value`."""
    return dumps_bytes(value).decode()


# An integer orjson might not read as one has 19 digits in a row. Found by turning every digit
# into "0" and looking for 19 of them: a plain substring search, ten times faster than a regex
# on a view-sized message (which every client reads).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19


def loads(text: str | bytes) -> Any:
    """The value of JSON text, as the standard library reads it: orjson, or the standard library
    for what orjson refuses (a lone surrogate's escape, as `dumps` may write; NaN) or would
    read otherwise (an integer beyond 64 bits becomes a float there: text with 19 digits in a
    row goes the slow way). Raises ValueError when neither reads it."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if _LONG_DIGITS not in data.translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)
