"""Reading and writing Hidden Role Deduction instances in two formats (docs/rules/hidden-role.md):

- the official SocialMaze release: one JSON list of scenario objects (`scenario_id`,
  `dataset_type`, `roles`, `statements`, `ground_truth`, `prompts`, `solution_analysis`);
- ours: JSON Lines, one instance a line, with our field names (`FORMAT`).

`load` and `parse` tell the two apart by the content: a file whose first non-space character is
`[` is the official list, anything else our JSON Lines (the file name does not matter).

A bad instance never stops the others: loaders return the instances they could read and a list of
`Problem`s, each naming the file, the instance (position from 1 and id) and the field. A truncated
JSON list still yields every instance before the break. JSON Lines are decoded line by line (bad
bytes cost only their line); a JSON list that is not UTF-8, like a file that cannot be read
(missing, a folder), is one Problem for the whole file, never an exception.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.answers import last_match
from engine.hidden_role.explain import explain
from engine.hidden_role.instance import UNKNOWN, Instance, Statement, counts_of
from engine.hidden_role.roles import (
    ROLE_ORDER,
    VARIANTS,
    Role,
    describe_composition,
    parse_role,
    told_role,
)
from engine.hidden_role.solver import solve, unique_answer
from engine.instance_files import json_list, not_utf8

__all__ = ["FORMAT", "Instance", "Problem", "Statement", "content_hash", "dump_jsonl",
           "dump_official", "from_record", "load", "load_jsonl", "load_official", "parse",
           "parse_jsonl", "parse_official", "save_jsonl", "save_official", "to_record"]

FORMAT = "parlor.hidden-role/1"
_TO_OFFICIAL = {"full": "all"}  # the release calls the Full variant "all"
_FROM_OFFICIAL = {"all": "full", **{v: v for v in VARIANTS}}


@dataclass(frozen=True)
class Problem:
    """Something wrong with one instance (or the file) that kept it from loading."""

    file: str
    position: int          # 1-based: the instance's place in the list, or its line in JSON Lines
    instance_id: str | None
    field: str             # dotted path, e.g. "statements[2].statements[0].target_player"
    message: str
    unit: str = "instance"  # "instance" (JSON list), "line" (JSON Lines) or "file" (unreadable)

    def __str__(self) -> str:
        if self.unit == "file":
            return f"{self.file}: {self.message}"
        named = f" (id {self.instance_id!r})" if self.instance_id is not None else ""
        return f"{self.file}: {self.unit} {self.position}{named}: {self.field}: {self.message}"


class _Bad(ValueError):
    """A field of one instance is missing or wrong; becomes a Problem."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


# --- small typed readers -------------------------------------------------------------------

def _get(obj: Any, key: str, path: str) -> Any:
    if not isinstance(obj, dict):
        raise _Bad(path or "(instance)", f"expected an object, got {type(obj).__name__}")
    if key not in obj:
        raise _Bad(f"{path}.{key}" if path else key, "missing")
    return obj[key]


def _int(value: Any, field: str) -> int:
    """An integer, or a string of digits (the release writes seats as "3")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise _Bad(field, f"expected a whole number, got {value!r}")


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(field, f"expected a list, got {type(value).__name__}")
    return value


def _role(value: Any, field: str) -> Role:
    try:
        return parse_role(value) if isinstance(value, str) else parse_role(repr(value))
    except ValueError as e:
        raise _Bad(field, str(e)) from None


def _answer_role(value: Any, field: str) -> str:
    if isinstance(value, str) and value.strip().lower() == UNKNOWN.lower():
        return UNKNOWN
    return _role(value, field).value


def _a(role: Role) -> str:
    return f"{'an' if role is Role.INVESTIGATOR else 'a'} {role}"


def _check(inst: Instance, names: Mapping[str, str]) -> None:
    """The rules every instance obeys whatever its format; `names` maps our field names to the
    file's, so the Problem names the field as the file spells it."""
    if inst.variant not in VARIANTS:
        raise _Bad(names["variant"], f"unknown variant {inst.variant!r}")
    if inst.n < 3 or len(inst.roles) != inst.n:
        raise _Bad(names["roles"], f"expected roles for players 1..n (n >= 3), got "
                                   f"{len(inst.roles)} for n = {inst.n}")
    counts = counts_of(inst.roles)
    if counts[Role.CRIMINAL] != 1:
        raise _Bad(names["roles"], f"exactly one Criminal needed, found {counts[Role.CRIMINAL]}")
    if counts != {r: inst.composition.get(r, 0) for r in ROLE_ORDER}:
        raise _Bad(names["composition"], f"the roles dealt ({describe_composition(counts)}) are "
                                         f"not the composition "
                                         f"({describe_composition(inst.composition)})")
    deceived = {"original": (0, 0), "rumormonger": (1, 0), "lunatic": (0, 1)}.get(inst.variant)
    has = (int(counts[Role.RUMORMONGER] > 0), int(counts[Role.LUNATIC] > 0))
    if (deceived is not None and has != deceived) or (deceived is None and has == (0, 0)):
        raise _Bad(names["variant"], f"the {inst.variant} variant cannot have "
                                     f"{describe_composition(counts)}")
    if inst.told != told_role(inst.roles[0]):
        raise _Bad(names["told"], f"{_a(inst.roles[0])} is told {told_role(inst.roles[0])}, "
                                  f"not {inst.told}")
    if inst.rounds < 1:
        raise _Bad(names["statements"], "no rounds")
    for t in range(1, inst.rounds + 1):
        speakers = sorted(s.speaker for s in inst.statements if s.round == t)
        if speakers != list(range(1, inst.n + 1)):
            raise _Bad(names["statements"], f"round {t} must have one statement from each of "
                                            f"players 1..{inst.n}, has speakers {speakers}")
    for s in inst.statements:
        if not 1 <= s.round <= inst.rounds:
            raise _Bad(names["statements"], f"round {s.round} is outside 1..{inst.rounds}")
        if not 1 <= s.target <= inst.n or s.target == s.speaker:
            raise _Bad(names["statements"], f"player {s.speaker} in round {s.round} speaks "
                                            f"about player {s.target}")
    criminal, role = inst.answer
    if criminal != inst.criminal:
        raise _Bad(names["criminal"], f"says Player {criminal}, the roles make Player "
                                      f"{inst.criminal} the Criminal")
    if role not in (inst.roles[0].value, UNKNOWN):
        raise _Bad(names["role"], f"says {role}, the roles make Player 1 {inst.roles[0]}")


# --- ours: JSON Lines ------------------------------------------------------------------------

_OURS = {"variant": "variant", "roles": "roles", "composition": "composition", "told": "told",
         "statements": "statements", "criminal": "answer.criminal", "role": "answer.role"}


def to_record(inst: Instance) -> dict[str, Any]:
    """Our JSON form of an instance (one JSON Lines line)."""
    return {
        "format": FORMAT, "id": inst.id, "variant": inst.variant, "n": inst.n,
        "rounds": inst.rounds, "told": inst.told.value,
        "composition": {r.value: inst.composition.get(r, 0) for r in ROLE_ORDER},
        "roles": [r.value for r in inst.roles],
        "statements": [[s.round, s.speaker, s.target, s.claim] for s in inst.statements],
        "answer": {"criminal": inst.answer[0], "role": inst.answer[1]},
    }


def _statement(value: Any, field: str) -> Statement:
    items = _list(value, field)
    if len(items) != 4 or not isinstance(items[3], bool):
        raise _Bad(field, f"expected [round, speaker, target, true|false], got {value!r}")
    return Statement(_int(items[0], field), _int(items[1], field), _int(items[2], field), items[3])


def from_record(obj: Any) -> Instance:
    """An instance from our JSON form; raises ValueError naming the field on bad input."""
    if isinstance(obj, dict) and obj.get("format", FORMAT) != FORMAT:
        raise _Bad("format", f"unknown format {obj['format']!r}; expected {FORMAT!r}")
    comp = _get(obj, "composition", "")
    if not isinstance(comp, dict):
        raise _Bad("composition", "expected an object of role counts")
    counts = {r: 0 for r in ROLE_ORDER}
    for name, count in comp.items():
        counts[_role(name, "composition")] = _int(count, f"composition.{name}")
    answer = _get(obj, "answer", "")
    inst = Instance(
        id=str(_get(obj, "id", "")), variant=str(_get(obj, "variant", "")),
        n=_int(_get(obj, "n", ""), "n"), rounds=_int(_get(obj, "rounds", ""), "rounds"),
        told=_role(_get(obj, "told", ""), "told"), composition=counts,
        roles=tuple(_role(r, f"roles[{i}]")
                    for i, r in enumerate(_list(_get(obj, "roles", ""), "roles"))),
        statements=tuple(sorted(
            (_statement(s, f"statements[{i}]")
             for i, s in enumerate(_list(_get(obj, "statements", ""), "statements"))),
            key=lambda s: (s.round, s.speaker))),
        answer=(_int(_get(answer, "criminal", "answer"), "answer.criminal"),
                _answer_role(_get(answer, "role", "answer"), "answer.role")))
    _check(inst, _OURS)
    return inst


def dump_jsonl(instances: Iterable[Instance]) -> str:
    return "".join(json.dumps(to_record(i), ensure_ascii=False) + "\n" for i in instances)


def parse_jsonl(text: str | bytes, source: str = "<text>"
                ) -> tuple[list[Instance], list[Problem]]:
    """Instances of our JSON Lines text (or its UTF-8 bytes, decoded line by line); blank lines
    are skipped."""
    entries: list[tuple[int, Any]] = []
    problems: list[Problem] = []
    lines = text.split(b"\n") if isinstance(text, bytes) else text.split("\n")
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                entries.append((number, json.loads(
                    line.decode("utf-8") if isinstance(line, bytes) else line)))
            except UnicodeDecodeError as e:
                problems.append(Problem(source, number, None, "(text)", not_utf8(e), "line"))
            except json.JSONDecodeError as e:
                problems.append(Problem(source, number, None, "(json)",
                                        f"not valid JSON at column {e.colno}: {e.msg}", "line"))
    loaded, more = _build(entries, from_record, source, "line", "id")
    return loaded, sorted(problems + more, key=lambda p: p.position)


# --- the official release --------------------------------------------------------------------

_OFFICIAL = {"variant": "dataset_type", "roles": "roles", "composition": "roles",
             "told": "prompts.1", "statements": "statements",
             "criminal": "ground_truth.criminal", "role": "ground_truth.player1_role"}
_TOLD_IN_PROMPT = re.compile(r"(?:your role is|told (?:that )?you are)\s+(?:the\s+|an?\s+)?"
                             r"(investigator|criminal|rumou?rmonger|lunatic)\b", re.IGNORECASE)


def _prompt_counts(prompt: str) -> dict[Role, int]:
    """Role counts a prompt states ("3 Investigator(s)", "1 Criminal"), for the roles it names."""
    found = {}
    for role in ROLE_ORDER:
        match = re.search(rf"(\d+)\s+{role.value}(?:\(s\)|s)?\b", prompt, re.IGNORECASE)
        if match:
            found[role] = int(match.group(1))
    return found


def _official_statements(value: Any) -> tuple[Statement, ...]:
    found = []
    for i, block in enumerate(_list(value, "statements")):
        where = f"statements[{i}]"
        t = _int(_get(block, "round", where), f"{where}.round")
        for j, item in enumerate(_list(_get(block, "statements", where), f"{where}.statements")):
            at = f"{where}.statements[{j}]"
            kind = _get(item, "statement_type", at)
            if kind not in ("is", "is not"):
                raise _Bad(f"{at}.statement_type", f"expected \"is\" or \"is not\", got {kind!r}")
            found.append(Statement(t, _int(_get(item, "player", at), f"{at}.player"),
                                   _int(_get(item, "target_player", at), f"{at}.target_player"),
                                   kind == "is"))
    return tuple(sorted(found, key=lambda s: (s.round, s.speaker)))


def from_official(obj: Any) -> Instance:
    """An instance from one object of the official release. The release does not store what
    Player 1 was told nor the composition: the told role is read from Player 1's prompt ("your
    role is X") when there is one, else follows from Player 1's actual role; the composition is
    the count of the `roles` dealt (every seat is listed), checked against the counts the prompt
    states. The statements' `statement` text is not read: the structured fields are the data."""
    roles_obj = _get(obj, "roles", "")
    if not isinstance(roles_obj, dict):
        raise _Bad("roles", "expected an object from player number to role")
    n = len(roles_obj)
    if set(roles_obj) != {str(i) for i in range(1, n + 1)}:
        raise _Bad("roles", f"expected players \"1\"..\"{n}\", got {sorted(roles_obj)}")
    roles = tuple(_role(roles_obj[str(i)], f"roles.{i}") for i in range(1, n + 1))
    statements = _official_statements(_get(obj, "statements", ""))
    truth = _get(obj, "ground_truth", "")
    told = told_role(roles[0])
    prompts = obj.get("prompts")
    prompt = prompts.get("1") if isinstance(prompts, dict) else None
    if isinstance(prompt, str):
        stated = last_match(_TOLD_IN_PROMPT, prompt)
        if stated and parse_role(stated.group(1)) != told:
            raise _Bad("prompts.1", f"tells Player 1 it is {parse_role(stated.group(1))}, but "
                                    f"{_a(roles[0])} is told {told}")
        for role, count in _prompt_counts(prompt).items():
            if count != roles.count(role):
                raise _Bad("prompts.1", f"states {count} {role}(s), the roles deal "
                                        f"{roles.count(role)}")
    variant = _get(obj, "dataset_type", "")
    inst = Instance(
        id=str(_get(obj, "scenario_id", "")),
        variant=_FROM_OFFICIAL.get(variant, str(variant)), n=n,
        rounds=len({s.round for s in statements}), told=told, composition=counts_of(roles),
        roles=roles, statements=statements,
        answer=(_int(_get(truth, "criminal", "ground_truth"), "ground_truth.criminal"),
                _answer_role(_get(truth, "player1_role", "ground_truth"),
                             "ground_truth.player1_role")))
    _check(inst, _OFFICIAL)
    return inst


def official_prompt(inst: Instance) -> str:
    """Player 1's instructions (our wording) for the `prompts` field of the official format."""
    return (
        f"Hidden Role Deduction with {inst.n} players over {inst.rounds} rounds. The roles are "
        f"{describe_composition(inst.composition)}. Each round every player says of one other "
        f"player that they are, or are not, the criminal. Investigators always tell the truth; "
        f"the Criminal says whatever suits them; a Rumormonger is told they are an Investigator "
        f"but their statements are random; a Lunatic is told they are the Criminal and speaks "
        f"like one.\nYou are Player 1 and you were told your role is {inst.told}.\n"
        f"After each round answer on two lines:\nFinal Criminal Is Player N.\n"
        f"My Role Is R. (R is Investigator, Criminal, Rumormonger, Lunatic or Unknown)\n")


def to_official(inst: Instance) -> dict[str, Any]:
    """One object of the official release format, with our prompt and our worked explanation."""
    found = solve(inst)
    rounds = [{"round": t, "statements": [
        {"player": str(s.speaker), "statement": s.text(), "target_player": str(s.target),
         "statement_type": "is" if s.claim else "is not"} for s in inst.round_statements(t)]}
        for t in range(1, inst.rounds + 1)]
    return {
        "scenario_id": inst.id, "dataset_type": _TO_OFFICIAL.get(inst.variant, inst.variant),
        "roles": {str(i): r.value for i, r in enumerate(inst.roles, 1)},
        "statements": rounds,
        "ground_truth": {"criminal": str(inst.answer[0]), "player1_role": inst.answer[1]},
        "prompts": {"1": official_prompt(inst)},
        "solution_analysis": {
            "unique_solution": unique_answer(inst) is not None,
            "possible_criminals": [str(c) for c in sorted({c for c, _ in found})],
            "player1_role": inst.answer[1],
            "reasoning_process": explain(inst)},
    }


def dump_official(instances: Iterable[Instance]) -> str:
    return json.dumps([to_official(i) for i in instances], indent=2, ensure_ascii=False) + "\n"


def parse_official(text: str | bytes, source: str = "<text>"
                   ) -> tuple[list[Instance], list[Problem]]:
    """Instances of an official-format JSON list (text or its UTF-8 bytes)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            return [], [_file_problem(source, not_utf8(e))]
    items, damage, rest = json_list(text)
    loaded, problems = _build(list(enumerate(items, 1)), from_official, source, "instance",
                              "scenario_id")
    if damage:
        # Name the damaged instance by its id when its opening survived.
        named = re.match(r'\s*,?\s*\{\s*"scenario_id"\s*:\s*"?([^",}]*)', rest)
        problems.append(Problem(source, len(items) + 1, named.group(1) if named else None,
                                "(json)", damage))
    return loaded, problems


# --- shared ----------------------------------------------------------------------------------

def _build(entries: list[tuple[int, Any]], read: Any, source: str, unit: str, id_key: str
           ) -> tuple[list[Instance], list[Problem]]:
    """Instances from (position, JSON object) pairs; every failure becomes a Problem and a second
    instance with an id already seen is refused (records identify instances by id)."""
    loaded: list[Instance] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for position, obj in entries:
        raw_id = obj.get(id_key) if isinstance(obj, dict) else None
        named = None if raw_id is None else str(raw_id)
        try:
            inst = read(obj)
        except _Bad as e:
            problems.append(Problem(source, position, named, e.field, e.message, unit))
            continue
        if inst.id in seen:
            problems.append(Problem(source, position, named, id_key,
                                    f"id already used by {unit} {seen[inst.id]}", unit))
            continue
        seen[inst.id] = position
        loaded.append(inst)
    return loaded, problems


def content_hash(inst: Instance) -> str:
    """sha256 of the canonical JSON of an instance (our form, keys sorted, no spaces) without its
    id: the same puzzle under another name has the same hash."""
    record = to_record(inst)
    del record["id"]
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _file_problem(source: str, message: str) -> Problem:
    return Problem(source, 0, None, "(file)", message, "file")


def _load(path: str | Path, read: Any) -> tuple[list[Instance], list[Problem]]:
    """`read(bytes, name)` on a file; one Problem, not an exception, when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        return [], [_file_problem(str(path), f"cannot read: {e.strerror or e}")]
    return read(data, str(path))


def load_official(path: str | Path) -> tuple[list[Instance], list[Problem]]:
    return _load(path, parse_official)


def load_jsonl(path: str | Path) -> tuple[list[Instance], list[Problem]]:
    return _load(path, parse_jsonl)


def parse(data: str | bytes, source: str = "<text>") -> tuple[list[Instance], list[Problem]]:
    """Either format, told apart by the content: a JSON list (the first non-space character is
    `[`) is the official release, anything else our JSON Lines."""
    official = data.lstrip()[:1] in ("[", b"[")
    return (parse_official if official else parse_jsonl)(data, source)


def load(path: str | Path) -> tuple[list[Instance], list[Problem]]:
    """Either format, told apart by the content (see parse), whatever the file is called."""
    return _load(path, parse)


def save_jsonl(instances: Iterable[Instance], path: str | Path) -> None:
    Path(path).write_text(dump_jsonl(instances), encoding="utf-8")


def save_official(instances: Iterable[Instance], path: str | Path) -> None:
    Path(path).write_text(dump_official(instances), encoding="utf-8")
