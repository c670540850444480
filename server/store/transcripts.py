"""LLM transcripts stored as what is new: long texts once, prompts as deltas (issue 8).

An LLM decision's transcript (see `bots.llm.bot.LLMBot.decide`) repeats the seat's system prompt
and, in its user prompt, most of the seat's previous prompt. `TranscriptCompactor` (one per game)
turns each transcript into a stored form plus the texts to keep once in the content-addressed
`texts(hash, text)` table; `expand` restores the exact transcripts. Pure: no I/O.

Stored form: the transcript with, in a message (a dict with `role` "system" or "user") whose
`content` is a string longer than `min_chars`, `content` replaced by one of
- `"content_ref": <hash>`: the text is `texts[hash]` (hash: 32 hex chars of its sha256);
- `"content_delta": {"base": <hash>, "ops": [...]}` (only the seat's prompt, i.e. the first user
  message of a transcript): the text rebuilt from the seat's previous prompt (whose hash is
  `base`) by concatenating the ops in order: `[start, stop]` copies `base_text[start:stop]`, a
  string is inserted as is. Offsets count Python str characters.
Every other key and entry is kept as it was. A transcript that already holds a reserved key is
stored whole as `[{"verbatim": transcript}]` (so the format stays lossless for any input).

Chains are bounded: a seat's prompt is stored whole (as a `content_ref`, or inline when short)
when it would be the `max_chain`-th delta in a row, or when its delta would be more than half its
size. To read one action: if `delta_base` is None its row and the texts suffice; otherwise pass
`expand` its seat's rows from the latest that `restarts_chain` — at most `max_chain` rows with a
prompt (a seat's rows without a text prompt, if any, neither break nor count in a chain).

A delta copies the common prefix and suffix and, between them, every line found in the base, so
it fits prompts that grow at the end, and also a sliding window of rounds, a cut history or a
redrawn board (text removed or changed at the front or in the middle), where a prefix alone
would keep little.

Storage order matters: the texts returned with a transcript must be stored with it (or before),
and every row of a seat must be stored in the order it was compacted; when a write fails, drop
the game's compactor (the next prompts start new chains, and texts are emitted again).
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K")

MIN_CHARS = 200  # shorter texts stay inline: a reference would save little
MAX_CHAIN = 50  # rows one read may need: a whole prompt at least every MAX_CHAIN per seat
MAX_DELTA_SHARE = 0.5  # a delta must be at most this share of the text, or the text goes whole
MIN_COPY = 24  # copies shorter than this are inlined: a [start, stop] pair costs about as much
HASH_CHARS = 32  # 128 bits of sha256: no collision in any realistic number of texts

REF, DELTA, VERBATIM = "content_ref", "content_delta", "verbatim"
_RESERVED = frozenset({REF, DELTA})

Op = list[int] | str  # [start, stop] copied from the base, or text inserted


def text_hash(text: str) -> str:
    """The key of a text in the texts table (lone surrogates hash too: no text is refused)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]


@dataclass(slots=True)
class _Head:
    """A seat's latest prompt: the only full prompt text the compactor keeps."""

    hash: str
    text: str
    chain: int  # deltas since the last prompt stored whole


class TranscriptCompactor:
    """Compacts the transcripts of one game, in the order they are stored."""

    def __init__(self, *, min_chars: int = MIN_CHARS, max_chain: int = MAX_CHAIN) -> None:
        if max_chain < 1:
            raise ValueError("max_chain must be at least 1")
        self.min_chars = min_chars
        self.max_chain = max_chain
        self._emitted: set[str] = set()  # hashes already handed out in this game
        self._heads: dict[Hashable, _Head] = {}

    def compact(self, seat: Hashable | None, transcript: list[dict[str, Any]]
                ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The transcript to store and the texts (hash -> text) to store once beside it.
        `seat` None: no delta to or from other transcripts (e.g. a bot failure stored apart):
        the result is readable on its own with the texts."""
        if _needs_escape(transcript):
            return [{VERBATIM: transcript}], {}
        new: dict[str, str] = {}
        out: list[dict[str, Any]] = []
        prompt = _prompt_index(transcript)
        for i, entry in enumerate(transcript):
            if not _is_text_message(entry):
                out.append(entry)
            elif i == prompt and seat is not None:
                out.append(self._prompt(seat, entry, new))
            elif len(entry["content"]) > self.min_chars:
                out.append(self._ref(entry, text_hash(entry["content"]), new))
            else:
                out.append(entry)
        return out, new

    def _prompt(self, seat: Hashable, entry: dict[str, Any], new: dict[str, str]
                ) -> dict[str, Any]:
        text: str = entry["content"]
        digest = text_hash(text)
        head = self._heads.get(seat)
        self._heads[seat] = _Head(digest, text, 0)
        if len(text) <= self.min_chars:
            return entry
        if digest in self._emitted or head is None or head.chain + 1 >= self.max_chain:
            return self._ref(entry, digest, new)
        ops = diff(head.text, text)
        if _cost(ops) > MAX_DELTA_SHARE * len(text):
            return self._ref(entry, digest, new)
        self._heads[seat].chain = head.chain + 1
        return _replace(entry, DELTA, {"base": head.hash, "ops": ops})

    def _ref(self, entry: dict[str, Any], digest: str, new: dict[str, str]) -> dict[str, Any]:
        if digest not in self._emitted:
            self._emitted.add(digest)
            new[digest] = entry["content"]
        return _replace(entry, REF, digest)


def expand(stored: Iterable[tuple[K, list[dict[str, Any]]]], texts: Mapping[str, str]
           ) -> Iterator[tuple[K, list[dict[str, Any]]]]:
    """The original transcripts, from stored ones given in the order they were compacted
    (any keys, e.g. action indexes, passed through). `texts` must hold every `text_refs`
    hash. To read one action, see the module's docstring (`restarts_chain`).

    Two passes: the first finds the last use of each delta base, so the second keeps a prompt
    only while a later delta needs it (about one per seat: memory stays bounded). Bases are
    found by hash, so the rows of all seats may come interleaved, and no seat is needed."""
    rows = list(stored)
    last_use: dict[str, int] = {}
    for n, (_, transcript) in enumerate(rows):
        base = delta_base(transcript)
        if base is not None:
            last_use[base] = n
    reader = _Reader(texts, last_use)
    for n, (key, transcript) in enumerate(rows):
        yield key, reader.expand(n, transcript)


class _Reader:
    def __init__(self, texts: Mapping[str, str], last_use: Mapping[str, int]) -> None:
        self.texts = texts
        self.last_use = last_use
        self.heads: dict[str, str] = {}  # prompts (by hash) a later delta is based on

    def expand(self, n: int, transcript: list[Any]) -> list[Any]:
        if _is_verbatim(transcript):
            return transcript[0][VERBATIM]
        prompt = _prompt_index(transcript)
        out = []
        for i, entry in enumerate(transcript):
            entry, digest = self._entry(n, entry)
            if i == prompt and isinstance(entry.get("content"), str):
                digest = digest or text_hash(entry["content"])
                if self.last_use.get(digest, -1) > n:
                    self.heads[digest] = entry["content"]
            out.append(entry)
        return out

    def _entry(self, n: int, entry: Any) -> tuple[Any, str | None]:
        """The entry restored, and its text's hash when known without hashing."""
        if not isinstance(entry, dict):
            return entry, None
        if REF in entry:
            return _restore(entry, REF, _text(self.texts, entry[REF])), entry[REF]
        if DELTA not in entry:
            return entry, None
        base_hash, ops = entry[DELTA]["base"], entry[DELTA]["ops"]
        base = self.heads.get(base_hash)
        if base is None:
            raise MissingText(f"row {n} is a delta of a prompt ({base_hash}) that is not in "
                              f"the earlier rows given")
        if self.last_use[base_hash] == n:
            del self.heads[base_hash]
        return _restore(entry, DELTA, patch(base, ops)), None


class MissingText(LookupError):
    """A stored transcript points at a text that was not given (texts table or earlier row)."""


def _text(texts: Mapping[str, str], digest: str) -> str:
    try:
        return texts[digest]
    except KeyError:
        raise MissingText(f"text {digest} is not in the texts given") from None


def text_refs(transcript: list[dict[str, Any]]) -> set[str]:
    """The hashes a stored transcript needs from the texts table."""
    if _is_verbatim(transcript):
        return set()
    return {e[REF] for e in transcript if isinstance(e, dict) and REF in e}


def delta_base(transcript: list[dict[str, Any]]) -> str | None:
    """The hash of the earlier prompt a stored transcript is a delta of, if any."""
    if _is_verbatim(transcript):
        return None
    for e in transcript:
        if isinstance(e, dict) and DELTA in e:
            return e[DELTA]["base"]
    return None


def restarts_chain(transcript: list[dict[str, Any]]) -> bool:
    """True when a stored transcript holds its seat's prompt whole (inline or by reference): a
    later delta of that seat can be read from this row on."""
    if _is_verbatim(transcript):
        return False
    prompt = _prompt_index(transcript)
    return prompt is not None and (REF in transcript[prompt] or
                                   isinstance(transcript[prompt].get("content"), str))


# -- deltas ---------------------------------------------------------------------------------
def diff(base: str, text: str) -> list[Op]:
    """Ops that rebuild `text` from `base` (see `patch`): the common prefix and suffix, and
    between them each line of `text` copied from a line of `base` equal to it (preferring the
    line that continues the current copy, then the next one further on) or else inserted.
    Greedy and O(n log n): difflib is quadratic on the repeated lines of a board or map."""
    head, tail = _common_ends(base, text)
    ops: list[Op] = []
    _copy(ops, base, 0, head)
    lines = base[head:len(base) - tail].splitlines(keepends=True)
    at = _offsets(lines, head)
    where: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        where.setdefault(line, []).append(i)
    run = [head, head]  # base chars being copied
    nxt = 0  # the base line that would continue the run
    for line in text[head:len(text) - tail].splitlines(keepends=True):
        i = nxt if nxt < len(lines) and lines[nxt] == line else _find(where.get(line), nxt)
        if i is not None and at[i] == run[1]:
            run[1] = at[i + 1]
        else:
            _copy(ops, base, *run)
            run = [at[i], at[i + 1]] if i is not None else [0, 0]
            if i is None:
                _insert(ops, line)
        nxt = nxt if i is None else i + 1
    _copy(ops, base, *run)
    _copy(ops, base, len(base) - tail, len(base))
    return ops


def _find(found: list[int] | None, start: int) -> int | None:
    """The first of the positions at or after `start`, else the first; None if there are none."""
    if not found:
        return None
    k = bisect.bisect_left(found, start)
    return found[k] if k < len(found) else found[0]


def patch(base: str, ops: Iterable[Op]) -> str:
    return "".join(base[op[0]:op[1]] if isinstance(op, list) else op for op in ops)


def _common_ends(base: str, text: str) -> tuple[int, int]:
    """Lengths of the common prefix and suffix, cut back to whole lines so that the lines
    between them align (a changed line is then one line to insert, not two halves)."""
    head = _common_prefix(base, text)
    head = text.rfind("\n", 0, head) + 1
    tail = _common_suffix(base[head:], text[head:])
    start = len(text) - tail  # where the suffix starts in `text`
    if tail and start > 0 and text[start - 1] != "\n":
        end = text.find("\n", start)
        tail = 0 if end < 0 else len(text) - end - 1
    return head, tail


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix, by binary search on C-speed comparisons."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if b.startswith(a[lo:mid], lo) else (lo, mid - 1)
    return lo


def _common_suffix(a: str, b: str) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        same = b.endswith(a[len(a) - mid:len(a) - lo], 0, len(b) - lo)
        lo, hi = (mid, hi) if same else (lo, mid - 1)
    return lo


def _offsets(lines: list[str], start: int) -> list[int]:
    """Offsets of each line's start, and of the end, in the whole text."""
    out = [start]
    for line in lines:
        out.append(out[-1] + len(line))
    return out


def _copy(ops: list[Op], base: str, start: int, stop: int) -> None:
    if ops and isinstance(ops[-1], list) and ops[-1][1] == start:
        ops[-1][1] = stop  # extending a copy costs nothing
    elif stop - start < MIN_COPY:
        _insert(ops, base[start:stop])
    else:
        ops.append([start, stop])


def _insert(ops: list[Op], text: str) -> None:
    if not text:
        return
    if ops and isinstance(ops[-1], str):
        ops[-1] += text
    else:
        ops.append(text)


def _cost(ops: list[Op]) -> int:
    """About the JSON size of the ops (a base hash and the keys come on top)."""
    return 60 + sum(len(op) + 3 if isinstance(op, str) else 14 for op in ops)


# -- entries --------------------------------------------------------------------------------
def _prompt_index(transcript: list[Any]) -> int | None:
    """The seat's prompt is the first user message (later ones are re-ask notes)."""
    for i, entry in enumerate(transcript):
        if isinstance(entry, dict) and entry.get("role") == "user":
            return i
    return None


def _is_text_message(entry: Any) -> bool:
    """A system or user message with text (assistant replies are new every time)."""
    return isinstance(entry, dict) and entry.get("role") in ("system", "user") and \
        isinstance(entry.get("content"), str)


def _replace(entry: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """The entry with `content` swapped for `key` (in the same place among the keys)."""
    return {(key if k == "content" else k): (value if k == "content" else v)
            for k, v in entry.items()}


def _restore(entry: dict[str, Any], key: str, text: str) -> dict[str, Any]:
    return {("content" if k == key else k): (text if k == key else v) for k, v in entry.items()}


def _is_verbatim(transcript: Any) -> bool:
    return isinstance(transcript, list) and len(transcript) == 1 and \
        isinstance(transcript[0], dict) and transcript[0].keys() == {VERBATIM}


def _needs_escape(transcript: list[Any]) -> bool:
    return _is_verbatim(transcript) or any(
        isinstance(e, dict) and not _RESERVED.isdisjoint(e) for e in transcript)
