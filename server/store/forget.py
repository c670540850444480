"""`parlor forget NAME`: a person's identifying data removed, their games kept for the others.

What it does (docs/operations.md, "Forgetting a person", says it for hosts):
- The person is re-keyed to a marker, `forgotten-<pseudonym>` (identity
  `human:forgotten-<pseudonym>`), in every table that names them: players, seats, ratings,
  rating_history, invites, consents. Rating numbers stay as they were. Their token hash is
  replaced by a value no token hashes to, so nobody can say hello as the marker and take the
  ratings over. Their consent records keep the text's hash and time; the form's answers go.
- Text they wrote at a table (chat lines, speeches, descriptions, free-text answers) is replaced
  by "[removed]", and the name wherever another player's text says it. Replayable stays exact:
  the game is replayed from its seed with the marker in place of each such text, and a
  replacement is kept only if the game stays what it was: every action judged as before and
  every event and the result equal, but for the texts that now hold the marker. Then the game's events are written again
  from that replay, so the stored actions still replay to the stored events. A text the rules
  judged differently with the marker (a Codenames clue, a SocialMaze answer, a description
  refused for saying the secret word) is a move, not talk: it is kept, and counted in the
  report. A game that no longer replays under today's rules is redacted in place (its stored
  actions and every event text equal to a removed one).
- LLM transcripts of those games (prompts quote what the person said) are rewritten whole with
  the same replacements; the shared prompt texts that held them are deleted.
- Finally the file is vacuumed with secure_delete on and its log truncated, so the old text is
  not left in free pages.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.chat import clean_chat
from engine.core import ActionRecord, EngineError, Event, GameRecord
from server.store import names
from server.store.pseudonyms import pseudonym, pseudonym_key
from server.store.store import Store, event_rows
from server.store.transcripts import text_refs

MARKER = "[removed]"
FORGOTTEN = "forgotten-"
NO_TOKEN = "forgotten"  # a token hash no token has (hashes are 64 hex digits)
IDENTITY_TABLES = (("seats", "identity"), ("ratings", "identity"),
                   ("rating_history", "identity"), ("invites", "used_by"),
                   ("consents", "identity"))


class UnknownPerson(LookupError):
    pass


@dataclass
class Report:
    name: str
    marker: str
    games: int = 0
    removed: int = 0  # texts replaced by the marker
    kept: int = 0  # texts the rules judged: moves, kept
    unreplayable: list[int] = field(default_factory=list)  # games redacted in place
    residue: list[str] = field(default_factory=list)  # "table.column" still holding the name


def find_person(conn: sqlite3.Connection, name: str) -> tuple[str, str]:
    """(name as stored, identity) of the person called `name` (or a name that looks the same);
    UnknownPerson if nobody is."""
    row = conn.execute("SELECT name, identity FROM players WHERE kind = 'human' AND name = ?",
                       (name,)).fetchone()
    if row is None:
        try:
            look = names.skeleton(names.normalise(name))
        except names.BadName:
            look = None
        row = look and conn.execute("SELECT name, identity FROM players WHERE kind = 'human' "
                                    "AND skeleton = ?", (look,)).fetchone()
    if not row or row[0].startswith(FORGOTTEN):
        raise UnknownPerson(f"no person called {name!r} in this database")
    return row[0], row[1]


def marker_for(conn: sqlite3.Connection, identity: str) -> str:
    return FORGOTTEN + pseudonym(pseudonym_key(conn), identity)


async def forget(db: str, name: str) -> Report:
    store = await Store.open(db)
    try:
        person, identity = await store.read_with(lambda c: find_person(c, name))
        marker = await store.read_with(lambda c: marker_for(c, identity))
        report = Report(person, marker)
        await store.read_with(lambda c: c.execute("PRAGMA secure_delete=ON"))
        said_name = re.compile(rf"(?<!\w){re.escape(person)}(?!\w)", re.IGNORECASE)
        games = await store.fetch("SELECT DISTINCT game_id FROM seats WHERE identity = ? "
                                  "ORDER BY game_id", (identity,))
        for (game_id,) in games:
            report.games += 1
            await _redact_game(store, game_id, identity, said_name, report)
        await store.write(lambda c: _rekey(c, identity, marker))
        report.residue = await store.read_with(lambda c: residue(c, person))
    finally:
        await store.close()
    _compact_file(db)
    return report


# -- a game's texts ---------------------------------------------------------------------------
async def _redact_game(store: Store, game_id: int, identity: str, said_name: re.Pattern[str],
                       report: Report) -> None:
    from engine.registry import get

    seats = {r[0] for r in await store.fetch("SELECT seat FROM seats WHERE game_id = ? AND "
                                             "identity = ?", (game_id, identity))}
    record = await store.load_record(game_id)
    assert record is not None

    def redact_text(seat: int, text: str) -> str:
        if seat in seats:
            return MARKER if text.strip() else text
        return said_name.sub(MARKER, text)

    counted = report.removed, report.kept
    try:
        game, actions = _replay_redacted(get(record.env), record, redact_text, report)
        events = game.events
    except _Diverged:
        report.removed, report.kept = counted
        report.unreplayable.append(game_id)
        actions = [_redacted_action(a, redact_text) or a for a in record.actions]
        report.removed += sum(1 for a, b in zip(actions, record.actions, strict=True)
                              if a.raw != b.raw)
        events = None
    changed = [(i, a) for i, (a, b) in enumerate(zip(actions, record.actions, strict=True))
               if a.raw != b.raw]
    # Their texts as typed, and as the rules keep what is said (engine/chat.py's cleaning).
    removed = [form for i, _ in changed if record.actions[i].seat in seats
               for text in _strings(record.actions[i].raw)
               for form in (text, clean_chat(text, len(text)))]
    if events is None:
        events = [Event(e.seq, e.step, e.type, _replace(e.data, removed, said_name), e.visible_to,
                        e.clock) for e in record.events]
    else:  # their texts as the others saw them (cleaned by the rules): what prompts quote
        removed += _said(events, record.events)
    transcripts = await store.transcripts(game_id)
    refs: set[str] = set()
    for row in await store.fetch("SELECT transcript FROM actions WHERE game_id = ? AND "
                                 "transcript IS NOT NULL", (game_id,)):
        refs |= text_refs(json.loads(row[0]))
    debriefs = await store.debriefs(game_id)

    def work(c: sqlite3.Connection) -> None:
        for idx, action in changed:
            raw = action.raw
            c.execute("UPDATE actions SET raw = ? WHERE game_id = ? AND idx = ?",
                      (raw if isinstance(raw, str) else json.dumps(raw), game_id, idx))
        c.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        c.executemany("INSERT INTO events (game_id, seq, step, type, data, visible_to, clock) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)", event_rows(game_id, events))
        for idx, transcript in transcripts.items():
            whole = [{"verbatim": _replace(transcript, removed, said_name)}]
            c.execute("UPDATE actions SET transcript = ? WHERE game_id = ? AND idx = ?",
                      (json.dumps(whole), game_id, idx))
        for (idx, raw_output) in c.execute("SELECT idx, raw_output FROM actions WHERE "
                                           "game_id = ? AND raw_output IS NOT NULL",
                                           (game_id,)).fetchall():
            c.execute("UPDATE actions SET raw_output = ? WHERE game_id = ? AND idx = ?",
                      (_replace(raw_output, removed, said_name), game_id, idx))
        for seat, transcript in debriefs.items():
            c.execute("UPDATE debriefs SET transcript = ? WHERE game_id = ? AND seat = ?",
                      (json.dumps([{"verbatim": _replace(transcript, removed, said_name)}]),
                       game_id, seat))
        c.execute("UPDATE bot_failures SET transcript = NULL WHERE game_id = ?", (game_id,))
        for ref in refs:  # a prompt text that is no longer this game's, if nobody else uses it
            used = c.execute("SELECT 1 FROM actions WHERE game_id != ?2 AND transcript LIKE ?1 "
                             "UNION ALL SELECT 1 FROM debriefs WHERE transcript LIKE ?1 "
                             "UNION ALL SELECT 1 FROM bot_failures WHERE transcript LIKE ?1 "
                             "LIMIT 1", (f"%{ref}%", game_id)).fetchone()
            if used is None:
                c.execute("DELETE FROM texts WHERE hash = ?", (ref,))
    await store.write(work)


class _Diverged(Exception):
    """The stored game does not replay to its stored events under today's rules."""


def _replay_redacted(env: Any, record: GameRecord, redact_text: Callable[[int, str], str],
                     report: Report) -> tuple[Any, list[ActionRecord]]:
    """Replay `record` from its seed with as many redacted texts as keep the game what it was;
    the game and its actions as they now stand. Every replacement is tried at once; where the
    replay strays (a move's effect may show later: a simultaneous round resolves on another
    seat's move), the latest replacement at or before that point is narrowed (a structured
    move's fields one at a time) or given up, and the game replayed again."""
    options = {i: iter(_variants(a, c)) for i, a in enumerate(record.actions)
               if a.outcome not in ("defaulted", "resigned")
               and (c := _redacted_action(a, redact_text)) is not None}
    accepted = {i: next(variants) for i, variants in options.items()}
    while True:
        game, strays_at = _replay_with(env, record, accepted)
        if strays_at is None:
            break
        tried = [i for i in accepted if i <= strays_at]
        if not tried:
            raise _Diverged()  # it strays with every text as it was
        culprit = max(tried)
        narrower = next(options[culprit], None)
        if narrower is None:
            del accepted[culprit]
        else:
            accepted[culprit] = narrower
    report.removed += len(accepted)
    report.kept += len(options) - len(accepted)
    return game, [accepted.get(i, a) for i, a in enumerate(record.actions)]


def _replay_with(env: Any, record: GameRecord, replaced: Mapping[int, ActionRecord]
                 ) -> tuple[Any, int | None]:
    """The game replayed with some actions replaced, and the index of the first action where
    it strays from the stored game (len(actions) if only its end does), or None."""
    game = env.new_game(env.Config.from_json(record.config), record.seed, record.players)
    stored = record.events
    for i, a in enumerate(record.actions):
        before = game.event_count
        try:
            env.replay_action(game, replaced.get(i, a))
        except EngineError:
            return game, i
        last = game.last_action()
        if last is None or (last.outcome, last.category, last.fatal, last.step, last.seat) != \
                (a.outcome, a.category, a.fatal, a.step, a.seat):
            return game, i
        if not _matches([_event(e) for e in game.events[before:]],
                        [_event(e) for e in stored[before:game.event_count]]):
            return game, i
    if record.aborted is not None and not game.over:
        game.abort(record.aborted)
    result = game.result.to_json() if game.result else None
    if not _matches([_event(e) for e in game.events], [_event(e) for e in stored]) or \
            not _matches(result, record.result.to_json() if record.result else None):
        return game, len(record.actions)
    return game, None


def _variants(a: ActionRecord, candidate: ActionRecord) -> list[ActionRecord]:
    """The replacement whole, then (a structured action) one text field at a time."""
    out = [candidate]
    if isinstance(a.raw, Mapping):
        out += [_with_raw(a, {**a.raw, k: candidate.raw[k]}) for k in a.raw
                if candidate.raw[k] != a.raw[k]]
    return out if len(out) != 2 else out[:1]  # one field: the same replacement


def _event(e: Event) -> Any:
    return [e.seq, e.step, e.type, e.data, e.visible_to, e.clock]


def _matches(replayed: Any, stored: Any) -> bool:
    """Equal, but for texts the replay holds a MARKER in (what was said, redacted)."""
    if isinstance(replayed, str) and isinstance(stored, str):
        return replayed == stored or MARKER in replayed
    if isinstance(replayed, Mapping) and isinstance(stored, Mapping):
        return replayed.keys() == stored.keys() and all(_matches(replayed[k], stored[k])
                                                        for k in replayed)
    if isinstance(replayed, (list, tuple)) and isinstance(stored, (list, tuple)):
        return len(replayed) == len(stored) and all(map(_matches, replayed, stored))
    return replayed == stored


def _redacted_action(a: ActionRecord, redact_text: Callable[[int, str], str]
                     ) -> ActionRecord | None:
    raw = a.raw
    if isinstance(raw, str):
        new: Any = redact_text(a.seat, raw)
    else:
        new = {k: redact_text(a.seat, v) if isinstance(v, str) else v for k, v in raw.items()}
    return None if new == raw else _with_raw(a, new)


def _with_raw(a: ActionRecord, raw: Any) -> ActionRecord:
    return ActionRecord(a.seat, a.step, raw, a.outcome, a.error, a.meta, a.category, a.fatal)


def _said(replayed: list[Event], stored: list[Event]) -> list[str]:
    """The stored event texts that the replay holds as MARKER alone."""
    found: list[str] = []

    def walk(new: Any, old: Any) -> None:
        if new == MARKER and isinstance(old, str) and old != MARKER:
            found.append(old)
        elif isinstance(new, Mapping) and isinstance(old, Mapping):
            for k in new.keys() & old.keys():
                walk(new[k], old[k])
        elif isinstance(new, (list, tuple)) and isinstance(old, (list, tuple)):
            for a, b in zip(new, old, strict=False):
                walk(a, b)

    for new, old in zip(replayed, stored, strict=False):
        walk(new.data, old.data)
    return found


def _strings(raw: Any) -> list[str]:
    values = [raw] if isinstance(raw, str) else [v for v in raw.values() if isinstance(v, str)]
    return [v for v in values if v.strip()]


def _replace(value: Any, texts: list[str], said_name: re.Pattern[str]) -> Any:
    """`value` with every text of `texts` (longest first) and the name replaced by MARKER."""
    if isinstance(value, str):
        for text in sorted(set(texts), key=len, reverse=True):
            if len(text.strip()) >= 3:  # a one- or two-letter line would hit other words
                value = value.replace(text.strip(), MARKER)
        return said_name.sub(MARKER, value)
    if isinstance(value, Mapping):
        return {k: _replace(v, texts, said_name) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, texts, said_name) for v in value]
    return value


# -- the person's rows ------------------------------------------------------------------------
def _rekey(c: sqlite3.Connection, identity: str, marker: str) -> None:
    new = f"human:{marker}"
    c.execute("UPDATE players SET name = ?, identity = ?, skeleton = ?, token_hash = ?, "
              "last_hello = NULL WHERE identity = ?",
              (marker, new, names.skeleton(marker), NO_TOKEN, identity))
    for table, column in IDENTITY_TABLES:
        c.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, identity))
    c.execute("UPDATE consents SET answers = NULL WHERE identity = ?", (new,))


def residue(c: sqlite3.Connection, name: str) -> list[str]:
    """Every table.column whose text still holds `name` (any case): what a host should look
    at (another player's move that the rules judged, say)."""
    found = []
    for (table,) in c.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                              "name NOT LIKE 'sqlite_%'").fetchall():
        for column in c.execute(f"PRAGMA table_info({table})").fetchall():
            hit = c.execute(f"SELECT 1 FROM {table} WHERE CAST({column[1]} AS TEXT) LIKE ? "
                            f"LIMIT 1", (f"%{name}%",)).fetchone()
            if hit:
                found.append(f"{table}.{column[1]}")
    return found


def _compact_file(db: str) -> None:
    """Old pages and log frames that held the removed text are overwritten: VACUUM with
    secure_delete, then the log truncated."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA secure_delete=ON")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
