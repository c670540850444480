"""Find the Spy's files for the passive mode (the paper's task): the authors' release and our
JSON Lines, read into recordings (engine/find_the_spy/passive.py) that a table plays as its
`recorded` setting. Every record is told apart by its content:

- ours: a recording as passive.py documents it (`words`, `descriptions` of `round`, `player`,
  `text`), optionally with `format` and `source`;
- the release, processed: `scenario_id`, `normal_word`, `spy_word`, `spy_player`,
  `player_words`, `num_rounds` and `statements` by round, each of `player` and `statement`;
- the release, raw: the same with `descriptions` per player and round instead of `statements`.

A file is a JSON list of records or one record a line. A bad record becomes a Problem naming the
file, the line or record, its id and the field (engine/instance_files.py); the others load. The
solver is Player 1, as in the paper.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from engine.find_the_spy.passive import PLAYERS, parse
from engine.instance_files import (
    FieldError,
    Loaded,
    Problem,
    build_each,
    json_lines,
    json_list,
    not_utf8,
)

FORMAT = "parlor.find-the-spy/1"
RELEASE = "SocialMaze release"
_NUMBER = re.compile(r"^\s*(?:player|round)?[\s_#-]*(\d+)\s*$", re.IGNORECASE)


def _number(value: Any, field: str, least: int = 1, most: int | None = None) -> int:
    """1, "1", "Player 1", "round_1" -> 1; FieldError otherwise."""
    found = None
    if isinstance(value, int) and not isinstance(value, bool):
        found = value
    elif isinstance(value, str) and _NUMBER.match(value):
        found = int(_NUMBER.match(value).group(1))
    if found is None or found < least or (most is not None and found > most):
        upto = f" to {most}" if most is not None else " or more"
        raise FieldError(field, f"expected a number from {least}{upto}, got "
                                f"{json.dumps(value)[:60]}")
    return found


def _word(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(field, f"expected a word, got {json.dumps(value)[:60]}")
    return value.strip().lower()


def _said(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FieldError(field, f"expected text, got {json.dumps(value)[:60]}")
    return value


def _by_number(value: Any, field: str, most: int | None) -> list[tuple[int, Any]]:
    """A list (1 first) or an object keyed by number ("1", "Player 1", "round_1") as
    (number, value) pairs in order."""
    if isinstance(value, list):
        pairs = list(enumerate(value, 1))
    elif isinstance(value, dict):
        pairs = [(_number(k, f"{field}.{k}", 1, most), v) for k, v in value.items()]
    else:
        raise FieldError(field, "expected a list or an object keyed by number")
    if most is not None and len(pairs) > most:
        raise FieldError(field, f"expected at most {most} entries, got {len(pairs)}")
    return sorted(pairs, key=lambda pair: pair[0])


def _player_words(item: Mapping[str, Any]) -> list[str]:
    """`player_words` (by player, Player 1's first), checked against `normal_word`, `spy_word`
    and `spy_player` where the record gives them; made from those three when it does not."""
    spy_word = _word(item["spy_word"], "spy_word") if "spy_word" in item else None
    normal = _word(item["normal_word"], "normal_word") if "normal_word" in item else None
    spy = _number(item["spy_player"], "spy_player", 1, PLAYERS) if "spy_player" in item \
        else None
    if "player_words" in item:
        pairs = _by_number(item["player_words"], "player_words", PLAYERS)
        words = [_word(w, f"player_words[{p}]") for p, w in pairs]
        if [p for p, _ in pairs] != list(range(1, PLAYERS + 1)):
            raise FieldError("player_words", f"expected the words of Players 1 to {PLAYERS}")
    elif None not in (spy_word, normal, spy):
        words = [spy_word if p == spy else normal for p in range(1, PLAYERS + 1)]
    else:
        raise FieldError("player_words", "missing (and no normal_word, spy_word and "
                                         "spy_player to make it from)")
    odd = [p for p, w in enumerate(words, 1) if words.count(w) == 1]
    if sorted(words.count(w) for w in set(words)) != [1, PLAYERS - 1]:
        raise FieldError("player_words", f"{PLAYERS - 1} players must share a word and one "
                                         f"hold another, got {words}")
    if spy is not None and odd != [spy]:
        raise FieldError("spy_player", f"Player {spy} is named the spy but Player {odd[0]} "
                                       f"holds the odd word")
    if spy_word is not None and words[odd[0] - 1] != spy_word:
        raise FieldError("spy_word", f"the spy holds {words[odd[0] - 1]!r}, not {spy_word!r}")
    if normal is not None and (normal not in words or normal == words[odd[0] - 1]):
        raise FieldError("normal_word", f"the civilians do not hold {normal!r}")
    return words


def _statements(value: Any) -> list[dict[str, Any]]:
    """`statements` by round: a list of rounds (or an object keyed by round), each a list of
    {player, statement} (or an object with `round` and `statements`); flat entries with their
    own `round` are read too."""
    out = []
    if isinstance(value, list) and all(isinstance(e, dict) and "statement" in e and "round" in e
                                       for e in value):
        rounds = [(None, value)]
    else:
        rounds = _by_number(value, "statements", None)
    for number, entries in rounds:
        where = "statements" if number is None else f"statements[{number}]"
        if isinstance(entries, dict) and "statements" in entries:
            number = _number(entries.get("round", number), f"{where}.round")
            entries = entries["statements"]
        if not isinstance(entries, list):
            raise FieldError(where, "expected a list of {player, statement}")
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            if not isinstance(entry, dict):
                raise FieldError(at, "expected an object with player and statement")
            if "player" not in entry:
                raise FieldError(f"{at}.player", "missing")
            said_round = number if number is not None else _number(entry.get("round"),
                                                                   f"{at}.round")
            out.append({"round": said_round,
                        "player": _number(entry["player"], f"{at}.player", 1, PLAYERS),
                        "text": _said(entry.get("statement"), f"{at}.statement")})
    return out


def _descriptions(value: Any) -> list[dict[str, Any]]:
    """The raw form's `descriptions`: per player (a list, Player 1 first, or an object keyed by
    player), each the player's descriptions by round (a list, or an object keyed by round); an
    object keyed by round ("round_1") holds each round's descriptions by player."""
    by_round = isinstance(value, dict) and bool(value) and all(
        str(k).strip().lower().startswith("round") for k in value)
    out = []
    for outer, said in _by_number(value, "descriptions", None if by_round else PLAYERS):
        for inner, text in _by_number(said, f"descriptions[{outer}]",
                                      PLAYERS if by_round else None):
            number, player = (outer, inner) if by_round else (inner, outer)
            out.append({"round": number, "player": player,
                        "text": _said(text, f"descriptions[{outer}][{inner}]")})
    return sorted(out, key=lambda d: (d["round"], d["player"]))


def _from_release(item: Mapping[str, Any]) -> dict[str, Any]:
    """One record of the release (either form) as our recording."""
    if "scenario_id" not in item:
        raise FieldError("scenario_id", "missing")
    ident = item["scenario_id"]
    if not isinstance(ident, (str, int)) or isinstance(ident, bool) or not str(ident).strip():
        raise FieldError("scenario_id", f"expected an id, got {json.dumps(ident)[:60]}")
    words = _player_words(item)
    said = _statements(item["statements"]) if "statements" in item \
        else _descriptions(item.get("descriptions"))
    if not said:
        raise FieldError("statements" if "statements" in item else "descriptions", "empty")
    rounds = max(d["round"] for d in said)
    if "num_rounds" in item and _number(item["num_rounds"], "num_rounds") != rounds:
        raise FieldError("num_rounds", f"says {item['num_rounds']}, the statements run to "
                                       f"round {rounds}")
    source = item.get("source") if isinstance(item.get("source"), str) else RELEASE
    return {"format": FORMAT, "id": str(ident).strip(), "source": source, "words": words,
            "descriptions": said}


def record(item: Any) -> dict[str, Any]:
    """Our recording of one record of any form; FieldError naming the field when it is bad."""
    if not isinstance(item, dict):
        raise FieldError("<record>", f"expected an object, got {type(item).__name__}")
    if "words" in item or "format" in item:
        if item.get("format", FORMAT) != FORMAT:
            raise FieldError("format", f"expected {FORMAT!r}, got {item['format']!r}")
        ours = dict(item)
    else:
        ours = _from_release(item)
    try:
        found = parse(ours)
    except ValueError as error:  # passive.py names the field first
        message = str(error)
        raise FieldError(re.split(r"[\s:]", message, maxsplit=1)[0], message) from None
    if not found.id:
        raise FieldError("id", "missing")
    return ours


def content_hash(recorded: Mapping[str, Any]) -> str:
    """The recording's content (words and descriptions), whatever its id or source."""
    found = parse(recorded)
    content = {"words": found.words, "descriptions": found.descriptions}
    return hashlib.sha256(json.dumps(content, ensure_ascii=False, separators=(",", ":"))
                          .encode("utf-8")).hexdigest()


def summary(recorded: Mapping[str, Any]) -> str:
    """One line for a picker, telling nothing secret: how many rounds and descriptions."""
    found = parse(recorded)
    return f"{PLAYERS} players, {found.rounds} round{'s' if found.rounds != 1 else ''}, " \
           f"{len(found.descriptions)} descriptions"


def read(data: bytes, name: str = "<data>") -> Loaded:
    """Every recording of a file (a JSON list, or JSON Lines), and a Problem per bad record."""
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if data.lstrip().startswith(b"["):
            return Loaded([], [Problem(name, None, None, "<file>", not_utf8(error))])
        content = None
    problems: list[Problem] = []
    if content is not None and content.lstrip().startswith("["):
        items, damage, _ = json_list(content)
        entries = [(i, None, item) for i, item in enumerate(items, 1)]
        if damage:
            problems.append(Problem(name, len(items) + 1, None, "<record>", damage))
    else:
        entries, problems = json_lines(data, name)
    loaded = build_each(entries, name, record, lambda ours: ours["id"],
                        lambda item: item.get("scenario_id", item.get("id")))
    return Loaded(loaded.instances, sorted(problems + loaded.problems,
                                           key=lambda p: p.index or 0))

