"""Study mode (`parlor serve --study FILE`): the study a server runs, and each person's answer.

A study file is Markdown with a TOML front matter between two `+++` lines: the study's `name`
and an optional demographics form (`[[form]]` tables); the Markdown after the front matter is
the consent text, shown to a person before their first game (docs/operations.md, "Running a
study"). A person's answer (agree or decline, and the form's answers) is stored in `consents`
with the sha256 of the consent text and the server's time; a changed text has another hash, so
everyone is asked again.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIELD_TYPES = ("text", "choice", "number")
MAX_FIELDS = 12  # a short form
MAX_TEXT_CHARS = 500  # the most a text field may allow
MAX_CONSENT_CHARS = 20_000  # the consent text fits one protocol message
FRONT = "+++"


class StudyError(ValueError):
    """A study file, or a form's answers, that cannot be used; the message says why."""


@dataclass(frozen=True)
class Field:
    """One question of the demographics form; answering is optional unless `required`."""

    id: str
    label: str
    type: str  # "text", "choice" or "number"
    required: bool = False
    max_chars: int = 100  # text
    choices: tuple[str, ...] = ()  # choice
    min: float | None = None  # number
    max: float | None = None  # number
    integer: bool = True  # number: whole numbers only

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "label": self.label, "type": self.type,
                               "required": self.required}
        if self.type == "text":
            out["max_chars"] = self.max_chars
        elif self.type == "choice":
            out["choices"] = list(self.choices)
        else:
            out |= {"min": self.min, "max": self.max, "integer": self.integer}
        return out

    def check(self, value: Any) -> Any:
        """The answer as stored (None: not answered); StudyError naming the field if wrong."""
        if value is None or value == "":
            if self.required:
                raise StudyError(f"{self.label}: an answer is required")
            return None
        if self.type == "text":
            if not isinstance(value, str) or len(value.strip()) > self.max_chars:
                raise StudyError(f"{self.label}: at most {self.max_chars} characters")
            return value.strip() or self.check(None)
        if self.type == "choice":
            if value not in self.choices:
                raise StudyError(f"{self.label}: choose one of {', '.join(self.choices)}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value):
            raise StudyError(f"{self.label}: a number is needed")
        if self.integer and value != int(value):
            raise StudyError(f"{self.label}: a whole number is needed")
        if (self.min is not None and value < self.min) or \
                (self.max is not None and value > self.max):
            raise StudyError(f"{self.label}: a number from {_num(self.min)} to {_num(self.max)}")
        return int(value) if self.integer else float(value)


def _num(value: float | None) -> str:
    return "any" if value is None else f"{value:g}"


@dataclass(frozen=True)
class Study:
    name: str
    consent: str  # Markdown
    form: tuple[Field, ...] = ()

    @property
    def consent_hash(self) -> str:
        return consent_hash(self.consent)

    def check_answers(self, answers: Mapping[str, Any]) -> dict[str, Any]:
        """The form's answers as stored (unanswered fields left out); StudyError if any is
        wrong or names no field."""
        known = {f.id for f in self.form}
        unknown = sorted(set(answers) - known)
        if unknown:
            raise StudyError(f"the form has no field {', '.join(unknown)}")
        out = {}
        for f in self.form:
            value = f.check(answers.get(f.id))
            if value is not None:
                out[f.id] = value
        return out

    def describe(self, status: str) -> dict[str, Any]:
        """The study as the protocol's `study` reply carries it."""
        return {"name": self.name, "consent": self.consent, "consent_hash": self.consent_hash,
                "form": [f.to_json() for f in self.form], "status": status}


def consent_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_study(path: str | Path) -> Study:
    """Read a study file; StudyError saying what is wrong (the host's `--study` argument)."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise StudyError(f"cannot read {path}: {e}") from None
    return parse_study(text)


def parse_study(text: str) -> Study:
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    if not lines or lines[0].strip() != FRONT:
        raise StudyError(f"a study file starts with a {FRONT} line, then the TOML front matter "
                         f"(name = \"...\", optional [[form]] fields), another {FRONT} line, "
                         f"then the consent text in Markdown")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == FRONT), None)
    if end is None:
        raise StudyError(f"the front matter has no closing {FRONT} line")
    try:
        front = tomllib.loads("".join(lines[1:end]))
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"the front matter is not valid TOML: {e}") from None
    consent = "".join(lines[end + 1:]).strip()
    if not consent:
        raise StudyError("the consent text (the Markdown after the front matter) is empty")
    if len(consent) > MAX_CONSENT_CHARS:
        raise StudyError(f"the consent text has {len(consent)} characters; at most "
                         f"{MAX_CONSENT_CHARS}")
    unknown = sorted(set(front) - {"name", "form"})
    if unknown:
        raise StudyError(f"unknown front matter key(s) {', '.join(unknown)}; valid: name, form")
    name = front.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 64:
        raise StudyError("the front matter needs name = \"...\" (1..64 characters): the "
                         "study's name, which its pseudonyms are drawn from")
    form = front.get("form", [])
    if not isinstance(form, list) or len(form) > MAX_FIELDS:
        raise StudyError(f"form is a list of at most {MAX_FIELDS} [[form]] tables")
    fields = tuple(_field(i, item) for i, item in enumerate(form))
    ids = [f.id for f in fields]
    if len(set(ids)) != len(ids):
        raise StudyError("two form fields have the same id")
    return Study(name.strip(), consent, fields)


def _field(i: int, item: Any) -> Field:
    where = f"form field {i + 1}"
    if not isinstance(item, dict):
        raise StudyError(f"{where} must be a [[form]] table")
    keys = {"id", "label", "type", "required", "max_chars", "choices", "min", "max", "integer"}
    unknown = sorted(set(item) - keys)
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(unknown)}; valid: "
                         f"{', '.join(sorted(keys))}")
    fid, kind = item.get("id"), item.get("type")
    if not isinstance(fid, str) or not fid.isidentifier() or len(fid) > 32:
        raise StudyError(f"{where}: id must be a word of letters, digits and _ (at most 32)")
    if kind not in FIELD_TYPES:
        raise StudyError(f"{where} ({fid}): type must be one of {', '.join(FIELD_TYPES)}")
    label = item.get("label", fid)
    if not isinstance(label, str) or not 0 < len(label) <= 200:
        raise StudyError(f"{where} ({fid}): label must be text of 1..200 characters")
    required = item.get("required", False)
    if not isinstance(required, bool):
        raise StudyError(f"{where} ({fid}): required is true or false")
    if kind == "text":
        size = item.get("max_chars", 100)
        if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= MAX_TEXT_CHARS:
            raise StudyError(f"{where} ({fid}): max_chars must be 1..{MAX_TEXT_CHARS}")
        return Field(fid, label, kind, required, max_chars=size)
    if kind == "choice":
        choices = item.get("choices")
        if not isinstance(choices, list) or not 2 <= len(choices) <= 20 or not all(
                isinstance(c, str) and 0 < len(c) <= 100 for c in choices) or \
                len(set(choices)) != len(choices):
            raise StudyError(f"{where} ({fid}): choices must be a list of 2..20 different texts")
        return Field(fid, label, kind, required, choices=tuple(choices))
    low, high, integer = item.get("min"), item.get("max"), item.get("integer", True)
    for bound in (low, high):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, float))
                                  or not math.isfinite(bound)):
            raise StudyError(f"{where} ({fid}): min and max are numbers")
    if low is not None and high is not None and low > high:
        raise StudyError(f"{where} ({fid}): min is above max")
    if not isinstance(integer, bool):
        raise StudyError(f"{where} ({fid}): integer is true or false")
    return Field(fid, label, kind, required, min=low, max=high, integer=integer)


# -- the store's side: answers in `consents` --------------------------------------------------
AGREED, DECLINED, UNANSWERED = "agreed", "declined", "unanswered"


def status(conn: sqlite3.Connection, identity: str, study: Study) -> str:
    """A person's latest answer to the study's current consent text: agreed, declined, or
    unanswered (never asked, or asked with a text that has changed since)."""
    row = conn.execute("SELECT consent_hash, agreed FROM consents WHERE identity = ? AND "
                       "study = ? ORDER BY id DESC LIMIT 1", (identity, study.name)).fetchone()
    if row is None or row[0] != study.consent_hash:
        return UNANSWERED
    return AGREED if row[1] else DECLINED


def record(conn: sqlite3.Connection, identity: str, study: Study, agreed: bool,
           answers: Mapping[str, Any] | None) -> None:
    """Store one answer (each is kept: the latest counts), at the server's time."""
    conn.execute("INSERT INTO consents (identity, study, consent_hash, agreed, answers, "
                 "answered_at) VALUES (?, ?, ?, ?, ?, ?)",
                 (identity, study.name, study.consent_hash, int(agreed),
                  json.dumps(dict(answers), sort_keys=True) if answers else None, time.time()))


def latest_answers(conn: sqlite3.Connection, study: str | None = None) -> list[sqlite3.Row]:
    """Each person's latest answer per study (of one study if named), oldest first: identity,
    player name and kind, study, consent hash, agreed, answers (JSON text) and time."""
    return conn.execute(
        "SELECT c.identity, p.name, c.study, c.consent_hash, c.agreed, c.answers, c.answered_at "
        "FROM consents c LEFT JOIN players p ON p.identity = c.identity "
        "WHERE c.id IN (SELECT max(id) FROM consents GROUP BY identity, study) "
        "AND (? IS NULL OR c.study = ?) ORDER BY c.answered_at, c.id", (study, study)).fetchall()
