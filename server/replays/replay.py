"""A stored game rebuilt step by step: `Replay.from_db` (a database) or `Replay.from_file` (a
replay file, no database needed). The rebuild is checked against the stored events; any
difference is a `ReplayMismatch` naming the first differing event, never shown silently.

A frame is the game after action `index` (frame 0: before any action); a perspective is a seat
(what it saw then: its view and the transcript lines of the events it could see) or None, the
omniscient view (every event, hidden roles and words included)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import EngineError, Game
from engine.describe import distinct_names
from engine.records import ActionRecord, Event
from engine.registry import get
from server.store.store import ALL, GameArchive, action_transcripts

FORMAT = "parlor-replay"
VERSION = 1
OMNISCIENT = None  # the perspective that sees every event


class ReplayError(Exception):
    """A replay that cannot be opened: an unknown game, a file that is not a replay."""


class ReplayMismatch(ReplayError):
    """The rebuilt game differs from the stored one (stored under other rules, or tampered)."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """What made a step. A bot's: its raw output, transcript (its reasoning) and usage (tokens,
    latency) as stored. A person's: `think_seconds` (see `Replay._steps`)."""

    index: int
    seat: int
    raw: Any
    outcome: str
    error: str | None
    kind: str
    raw_output: str | None = None
    transcript: Any = None
    usage: Mapping[str, Any] | None = None
    latency_ms: float | None = None
    think_seconds: float | None = None


@dataclasses.dataclass(frozen=True)
class Frame:
    """The game after action `index`, from one perspective: `view` (a seat's view, or for the
    omniscient perspective every seat's and the hidden setup), the transcript `lines` new at
    this step, the env's `clock`, the `decision` that made the step (None for frame 0, and
    for a seat's perspective, None unless the seat made it: who acts when can be a secret, as
    in Secret Mafia's night), and the `events` new at this step that the perspective saw (as
    JSON: what env-specific viewers read, SocialGrid's ballots and meetings say). A frame's
    view shares the parts that did not change with the frame before (a long SocialGrid game's
    frames took ~900 MB as copies, ~140 MB shared): read views, never change them."""

    index: int
    clock: Mapping[str, Any]
    view: Mapping[str, Any]
    lines: tuple[str, ...]
    decision: Decision | None
    events: tuple[Mapping[str, Any], ...] = ()

    def blank(self) -> bool:
        """No line, no event and no decision of its perspective's own at this step."""
        return bool(self.index) and not self.lines and not self.events and self.decision is None


def _plain(value: Any) -> Any:
    """`value` as JSON reads it back (tuples become lists), for comparing rebuilt with stored."""
    return json.loads(json.dumps(value))


def _shared(new: Any, old: Any) -> Any:
    """`new` with every part equal to the same part of `old` replaced by `old`'s object."""
    if new == old:
        return old
    if isinstance(new, dict) and isinstance(old, dict):
        return {k: _shared(v, old[k]) if k in old else v for k, v in new.items()}
    if isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
        return [_shared(a, b) for a, b in zip(new, old, strict=True)]
    return new


def _event_json(e: Event) -> dict[str, Any]:
    return _plain(e.to_json())


class Replay:
    """One game as a replay file holds it (`to_json`): env, rules version, config, seed, seat
    names and kinds, the actions with their stored decision data, the stored events."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if data.get("format") != FORMAT or not isinstance(data.get("version"), int):
            raise ReplayError("not a Parlor replay file (no \"format\": \"parlor-replay\")")
        if data["version"] > VERSION:
            raise ReplayError(f"a replay file of version {data['version']}; this Parlor reads "
                              f"version {VERSION} and older")
        self.data = dict(data)
        try:
            self.env = get(data["env"])
        except EngineError as e:
            raise ReplayError(str(e)) from None
        self.names = distinct_names(list(data["names"]))  # as the table showed them
        self.kinds: list[str] = list(data["kinds"])
        self.actions = [ActionRecord.from_json(a) for a in data["actions"]]
        self.stored_events = [Event.from_json(e) for e in data["events"]]

    # -- opening --------------------------------------------------------------------------------
    @classmethod
    def from_db(cls, conn: sqlite3.Connection, game_id: int) -> Replay:
        """Game `game_id` of the database on `conn` (a Store's: `await store.read_with(lambda
        c: Replay.from_db(c, game_id))`). ReplayError when there is no such game."""
        def read(sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
            cursor = conn.cursor()
            cursor.row_factory = sqlite3.Row
            return cursor.execute(sql, params).fetchall()

        games = read("SELECT * FROM games WHERE id = ?", (game_id,))
        if not games:
            raise ReplayError(f"no game {game_id} in this database")
        g = games[0]
        seats = read("SELECT s.seat, s.kind, s.identity, p.name FROM seats s JOIN players p "
                     "ON p.id = s.player_id WHERE s.game_id = ? ORDER BY s.seat", (game_id,))
        archive = GameArchive(read, game_id)
        transcripts = dict(action_transcripts(read, game_id))
        rows = read("SELECT idx, usage, raw_output, latency_ms, created FROM actions "
                    "WHERE game_id = ? ORDER BY idx", (game_id,))
        actions = []
        for a, row in zip(archive.actions(0, ALL), rows, strict=True):
            actions.append(a.to_json() | {
                "raw_output": row["raw_output"], "transcript": transcripts.get(row["idx"]),
                "usage": json.loads(row["usage"]) if row["usage"] else None,
                "latency_ms": row["latency_ms"], "created": row["created"]})
        return cls({
            "format": FORMAT, "version": VERSION, "game_id": game_id, "env": g["env"],
            "rules_version": g["rules_version"], "preset": g["preset"],
            "config": json.loads(g["config"]), "seed": str(g["seed"]), "players": len(seats),
            "names": [s["name"] for s in seats], "kinds": [s["kind"] for s in seats],
            "identities": [s["identity"] for s in seats], "started": g["started"],
            "ended": g["ended"], "aborted": g["aborted"],
            "result": json.loads(g["result"]) if g["result"] else None,
            "actions": actions,
            "events": [e.to_json() for e in archive.events(0, ALL)]})

    @classmethod
    def from_file(cls, path: str | Path) -> Replay:
        """A replay file (`to_json`'s JSON, as `parlor replay --export` writes it): no
        database needed."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ReplayError(f"cannot read {path} as a replay file: {e}") from None
        if not isinstance(data, dict):
            raise ReplayError(f"{path} is not a Parlor replay file")
        try:
            return cls(data)
        except (KeyError, TypeError, ValueError) as e:
            raise ReplayError(f"{path} is not a complete replay file (missing {e})") from None

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)

    # -- the rebuild --------------------------------------------------------------------------
    def _new_game(self) -> Game:
        env, data = self.env, self.data
        try:
            return env.new_game(env.Config.from_json(data["config"]), int(data["seed"]),
                                data["players"])
        except EngineError as e:
            raise ReplayMismatch(f"the game cannot be set up again under {env.id} rules "
                                 f"{env.rules_version}: {e}") from None

    def _act(self, game: Game, i: int) -> list[Event]:
        """Make action `i - 1` again on `game` (now at frame i - 1): the events it made, the
        stored abort joined to the last."""
        action = self.actions[i - 1]
        try:
            made = list(self.env.replay_action(game, action))
        except EngineError as e:
            raise ReplayMismatch(f"action {i - 1} (seat {action.seat}, {action.raw!r}) "
                                 f"cannot be made again: {e}") from None
        return made + self._abort(game) if i == len(self.actions) else made

    def _steps(self) -> Iterator[tuple[Game, int, list[Event], float | None]]:
        """(game, index, events the step made, the action's think time) for frame 0 and after
        each action, the stored abort (if any) joined to the last frame. A think time is the
        action's stored `created` time less the moment the seat's turn began: the `created`
        time of the action after which the seat was first awaited again (the game's `started`
        time if it was awaited from the start); None where the replay holds no times."""
        data = self.data
        game = self._new_game()
        made = list(game.events)
        if not self.actions:
            made += self._abort(game)
        began: dict[int, float | None] = dict.fromkeys(game.pending(), data.get("started"))
        yield game, 0, made, None
        for i in range(1, len(self.actions) + 1):
            made = self._act(game, i)
            action = self.actions[i - 1]
            at = data["actions"][i - 1].get("created")
            turn = began.pop(action.seat, None)
            for seat in game.pending():
                began.setdefault(seat, at)
            yield game, i, made, None if at is None or turn is None else max(at - turn, 0.0)

    def _abort(self, game: Game) -> list[Event]:
        reason = self.data.get("aborted")
        return game.abort(reason) if reason is not None and not game.over else []

    def check(self) -> None:
        """Rebuild the whole game and compare every event (type, data, visibility, step,
        clock) with the stored one; ReplayMismatch naming the first difference."""
        rebuilt = [e for _, _, made, _ in self._steps() for e in made]
        self._compare(rebuilt)

    def _compare(self, rebuilt: list[Event]) -> None:
        env, stored_version = self.env, self.data["rules_version"]
        under = "" if stored_version == env.rules_version else (
            f" (stored under {env.id} rules {stored_version}, this Parlor plays "
            f"{env.rules_version})")
        for old, new in zip(self.stored_events, rebuilt, strict=False):
            was, now = _event_json(old), _event_json(new)
            if was != now:
                field = next(k for k in ("type", "step", "visible_to", "data", "clock", "seq")
                             if was.get(k) != now.get(k))
                raise ReplayMismatch(
                    f"event {old.seq} differs in its {field}: stored {old.type} "
                    f"{json.dumps(was[field])[:200]}, rebuilt {new.type} "
                    f"{json.dumps(now[field])[:200]}{under}")
        if len(rebuilt) != len(self.stored_events):
            n = min(len(rebuilt), len(self.stored_events))
            extra = (f"stored has {self.stored_events[n].type}" if n < len(self.stored_events)
                     else f"rebuilt has {rebuilt[n].type}")
            raise ReplayMismatch(f"event {n} differs: {extra}, the other ends there "
                                 f"({len(self.stored_events)} stored, {len(rebuilt)} rebuilt)"
                                 f"{under}")
        if under:
            raise ReplayMismatch(f"the events match, but the game was{under}")

    def _decision(self, index: int, think: float | None) -> Decision:
        a, stored = self.actions[index], self.data["actions"][index]
        kind = self.kinds[a.seat]
        return Decision(index, a.seat, a.raw, a.outcome, a.error, kind, stored.get("raw_output"),
                        stored.get("transcript"), stored.get("usage"), stored.get("latency_ms"),
                        think if kind == "human" else None)

    def decisions(self) -> list[Decision]:
        """Each action's decision (a person's think time as `_steps` says)."""
        return [self._decision(i - 1, think) for _, i, _, think in self._steps() if i]

    def frames(self, seat: int | None = OMNISCIENT, *, views: bool = True) -> list[Frame]:
        """Frame 0..n for `seat` (OMNISCIENT: everything). The rebuild is checked as it goes:
        a mismatch raises before any frame is returned. `views=False` (omniscient only): the
        frames without their views, fast (a long SocialGrid game's views are nearly all of its
        rebuild time); `rewinder().view(index)` gives each when it is shown."""
        if seat is not None and not views:
            raise ValueError("a seat's frames need their views (seen() compares them)")
        if seat is not None and not 0 <= seat < self.data["players"]:
            raise ReplayError(f"no seat {seat}; seats are 0..{self.data['players'] - 1}")
        name = dict(enumerate(self.names)).get
        describe = self.env.describer(lambda s: name(s) or self.env.seat_name(s))
        frames, rebuilt = [], []
        for game, i, made, think in self._steps():
            rebuilt += made
            if not views:
                view = {}
            elif seat is None:
                view = _everywhere(game)
            else:
                view = game.view(seat)
            seen = [e for e in made if seat is None or e.visible(seat)]
            lines = tuple(describe(e, seat) if seat is not None or e.visible_to == "all"
                          else f"{_recipients(e.visible_to, self.names)} {describe(e, seat)}"
                          for e in seen)
            decision = self._decision(i - 1, think) if i and (
                seat is None or self.actions[i - 1].seat == seat) else None
            view = _plain(view)
            if frames and views:  # a long game's frames share what did not change (memory, not copies)
                view = _shared(view, frames[-1].view)
            frames.append(Frame(i, dict(game.clock), view, lines, decision,
                                tuple(_event_json(e) for e in seen)))
        self._compare(rebuilt)
        return frames

    def seen(self, seat: int | None = OMNISCIENT) -> list[Frame]:
        """`frames(seat)` without the steps the seat saw nothing of: no line, event or decision
        of its own, and the same view as before. What a viewer steps through: how many actions
        others made unseen is itself something a seat did not see. The omniscient perspective
        keeps every frame."""
        frames = self.frames(seat)
        if seat is None:
            return frames
        kept = [frames[0]]
        for f in frames[1:]:
            if not f.blank() or f.view != kept[-1].view:
                kept.append(f)
        return kept

    def rewinder(self) -> Rewinder:
        return Rewinder(self)

    def jumps(self) -> list[tuple[int, Mapping[str, Any]]]:
        """(frame index, clock) where the env's clock (round, phase, tick...) changes: where
        a viewer jumps to a round, phase, meeting or vote. Frame 0 is always one."""
        found: list[tuple[int, Mapping[str, Any]]] = []
        for game, i, _, _ in self._steps():
            clock = _plain(dict(game.clock))
            if not found or found[-1][1] != clock:
                found.append((i, clock))
        return found

    # -- text -----------------------------------------------------------------------------------
    def seat_label(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat}, {self.env.seat_name(seat)})"

    def transcript(self, seat: int | None = OMNISCIENT) -> list[str]:
        """The transcript lines for `seat` (OMNISCIENT: all), each frame's under its step."""
        out = []
        for f in self.frames(seat):
            head = _heading(f, self.names)
            if f.lines:
                out.append(f"[{head}]")
                out += [f"  {line}" for line in f.lines]
        return out

    def markdown(self, seat: int | None = OMNISCIENT) -> str:
        """A readable Markdown transcript: omniscient (every line, each decision's data) or
        one seat's (only what it saw, and only its own decisions' data)."""
        d = self.data
        who = "omniscient" if seat is None else f"as seen by {self.seat_label(seat)}"
        out = [f"# {self.env.title} — replay ({who})", "",
               f"- env: {d['env']} (rules {d['rules_version']}), preset: {d.get('preset')}",
               f"- seed: {d['seed']}" + (f", game {d['game_id']}" if d.get("game_id") else ""),
               "- seats: " + "; ".join(f"{self.seat_label(s)} [{self.kinds[s]}]"
                                      for s in range(d["players"])), ""]
        for f in self.seen(seat):
            dec = f.decision
            clock = ", ".join(f"{k} {v}" for k, v in f.clock.items())
            heading = _heading(f, self.names)
            out.append(f"## {heading[0].upper()}{heading[1:]}"
                       + (f" ({clock})" if clock and f.index else ""))
            if dec is not None:
                out += _decision_lines(dec)
            out += [""] + [f"- {line}" for line in f.lines] + [""]
        return "\n".join(out)


def _recipients(visible_to: Sequence[int], names: Sequence[str]) -> str:
    """How the omniscient transcript marks a private line: "[to ann, bob]", or "[to nobody]"
    for what the rules keep from every seat (Secret Mafia's night tally, SocialGrid's ballots)."""
    return f"[to {', '.join(names[s] for s in visible_to) or 'nobody'}]"


def _everywhere(game: Game) -> dict[str, Any]:
    """The omniscient view: every seat's and the hidden setup."""
    return {"seats": {s: game.view(s) for s in range(game.players)},
            "setup": game.hidden_setup()}


class Rewinder:
    """The game at any frame without keeping every state: a cursor that steps forward, and a
    copy every CHECKPOINT actions to start from when asked for an earlier frame. Stepping
    through a replay costs one action a frame; jumping back, one copy and at most CHECKPOINT
    actions. Not for two threads at once (the server holds a lock)."""

    CHECKPOINT = 128

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = replay._new_game()
        self.index = 0
        self.checkpoints: dict[int, Game] = {0: self.game.fork()}

    def game_at(self, index: int) -> Game:
        """The game after action `index` (clamped to the replay's actions): the cursor itself,
        to read and not to change."""
        index = max(0, min(index, len(self.replay.actions)))
        if index < self.index or index - self.index > self.CHECKPOINT:
            start = max(i for i in self.checkpoints if i <= index)
            if not start <= self.index <= index:
                self.game, self.index = self.checkpoints[start].fork(), start
        while self.index < index:
            self.index += 1
            self.replay._act(self.game, self.index)
            if self.index % self.CHECKPOINT == 0 and self.index not in self.checkpoints:
                self.checkpoints[self.index] = self.game.fork()
        return self.game

    def view(self, index: int) -> dict[str, Any]:
        """The omniscient view of frame `index`, as `frames(None)` gives it."""
        return _plain(_everywhere(self.game_at(index)))


def _heading(frame: Frame, names: Sequence[str]) -> str:
    if frame.index == 0:
        return "setup"
    mover = f": {names[frame.decision.seat]}" if frame.decision is not None else ""
    return f"step {frame.index}{mover}"


def _decision_lines(dec: Decision) -> list[str]:
    raw = dec.raw if isinstance(dec.raw, str) else json.dumps(dec.raw)
    out = ["", f"Move: `{raw}` ({dec.outcome}{': ' + dec.error if dec.error else ''})"]
    if dec.think_seconds is not None:
        out.append(f"Think time: {dec.think_seconds:.1f} s")
    if dec.usage or dec.latency_ms is not None:
        out.append(f"Usage: {json.dumps(dec.usage or {})}, latency "
                   f"{dec.latency_ms if dec.latency_ms is not None else '?'} ms")
    if dec.raw_output:
        out += ["", "Raw output:", "", "```", dec.raw_output, "```"]
    return out
