"""The `games` and `actions` datasets of every environment (issue 26): one row per game, one row
per decision, for people's games and bots' alike, with people under pseudonyms.

Both are made in one pass over the games (`dataset_rows`), so a directory holding both
(server/reports/dataset_files.py) describes the same games. A game's row needs no replay; its
decisions' observations do: the game is replayed from its stored config, seed and actions (as
`Env.replay` does), and just before each action the acting seat's own view is rendered with the
env's text (`Env.render(game.view(seat))`, what a bot's prompt and a person's screen are made
of), so an observation holds only what that seat could see then. When the replay under today's
rules does not follow the stored game (other rules version, another judgement of a move) the
observations from there on are null and the game is counted on stderr. An LLM seat's decisions
also carry the prompt the model got and its whole transcript, restored from the store's
compact form one decision at a time.

Only games that are over are read: finished and void (aborted) ones, whose hidden setup the end
revealed to everyone; running games are skipped and counted. People appear under their
pseudonym (server/store/pseudonyms.py); names only when asked (`names=True`). Games are read a
page at a time and rows are yielded one at a time: memory does not grow with the database.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engine.config import config_hash
from engine.core import EngineError, Env, Game
from engine.registry import env_ids, get
from server.reports.export_mindgames import Diverged, Tally, games, replay_action, stored_action
from server.store.pseudonyms import Pseudonyms
from server.store.store import action_transcripts
from server.wire.jsontext import dumps

ENVS = tuple(env_ids())
CONFIGS = ("games", "actions")  # the dataset's configs, one row kind each
_GAME_COLUMNS = ("id, env, preset, rules_version, config, seed, status, reason, result, setup, "
                 "metrics, unrated, started, ended")
USAGE_FIELDS = ("latency_ms", "prompt_tokens", "completion_tokens", "cached_tokens", "cost",
                "retries")


class DatasetTally(Tally):
    """What the export wrote (rows per config) and skipped, for its one-line summary."""

    chosen: tuple[str, ...] = CONFIGS

    def __init__(self) -> None:
        super().__init__()
        self.written = dict.fromkeys(CONFIGS, 0)
        self.void = 0
        self.by_env: Counter[str] = Counter()
        self.unreplayed = 0  # games whose observations stop short

    def summary(self, where: str) -> str:
        wrote = ", ".join(f"{n} {config} rows" for config, n in self.written.items()
                          if config in self.chosen)
        running = self.skipped["running"]
        return (f"wrote {wrote} ({self.games} games, {self.void} of them void) to {where}; "
                f"skipped {running} running game{'s' * (running != 1)}"
                + (f"; observations not rebuilt for {self.unreplayed} games (other rules)"
                   if self.unreplayed else "") + self.said_left_out())


def dataset_rows(conn: sqlite3.Connection, envs: tuple[str, ...], tally: DatasetTally,
                 configs: tuple[str, ...], people: Pseudonyms, *, names: bool = False
                 ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(config, row) for every game that is over and, when "actions" is among `configs`, each of
    its decisions after its game's row; people named by `people`, and by name too if `names`."""
    label = people.label
    tally.chosen = configs
    for g in games(conn, envs, _GAME_COLUMNS):
        if g["status"] == "running":
            tally.skipped["running"] += 1
            continue
        tally.games += 1
        tally.by_env[g["env"]] += 1
        tally.void += g["status"] == "void"
        seats = [_seat(s, label, names) for s in conn.execute(
            "SELECT s.seat, s.kind, s.identity, s.status, s.reward, p.name FROM seats s JOIN "
            "players p ON p.id = s.player_id WHERE s.game_id = ? ORDER BY s.seat", (g["id"],))]
        result = json.loads(g["result"]) if g["result"] else None
        setup = json.loads(g["setup"]) if g["setup"] else {}
        _roles(seats, result, setup)
        if "games" in configs:
            tally.written["games"] += 1
            yield "games", game_row(g, seats, result, conn)
        if "actions" in configs:
            for row in action_rows(conn, g, seats, result, tally):
                tally.written["actions"] += 1
                yield "actions", row


def _seat(s: sqlite3.Row, label: Any, names: bool) -> dict[str, Any]:
    return {"seat": s["seat"], "kind": s["kind"], "player": label(s["identity"], s["kind"]),
            "name": s["name"] if names else None, "role": None, "side": None,
            "status": s["status"], "reward": s["reward"], "winner": False}


def _roles(seats: list[dict[str, Any]], result: dict[str, Any] | None,
           setup: dict[str, Any]) -> None:
    """Each seat's role and side (the result's; a void game's from its revealed setup), and
    whether it won."""
    roles, sides = (result or {}).get("roles") or [], (result or {}).get("sides") or []
    if not roles and isinstance(setup.get("roles"), list):
        dealt = [r for r in setup["roles"] if isinstance(r, dict)]
        roles, sides = [r.get("name") for r in dealt], [r.get("side") for r in dealt]
    winners = set((result or {}).get("winners") or ())
    for s in seats:
        i = s["seat"]
        s["role"] = roles[i] if i < len(roles) else None
        s["side"] = sides[i] if i < len(sides) else None
        s["winner"] = i in winners


def game_row(g: sqlite3.Row, seats: list[dict[str, Any]], result: dict[str, Any] | None,
             conn: sqlite3.Connection) -> dict[str, Any]:
    kinds = {s["kind"] for s in seats}
    decisions = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                             (g["id"],)).fetchone()[0]
    return {"game_id": g["id"], "env": g["env"], "preset": g["preset"],
            "rules_version": g["rules_version"], "config_hash": config_hash(g["config"]),
            "config": g["config"], "seed": g["seed"],
            "status": g["status"], "void": g["status"] == "void", "reason": g["reason"],
            "started": g["started"], "ended": g["ended"],
            "pool": "people" if kinds == {"human"} else "mixed" if "human" in kinds else "bots",
            "players": seats, "winners": list((result or {}).get("winners") or ()),
            "draw": bool((result or {}).get("draw")), "decisions": decisions,
            "metrics": g["metrics"], "setup": g["setup"], "unrated": g["unrated"]}


def action_rows(conn: sqlite3.Connection, g: sqlite3.Row, seats: list[dict[str, Any]],
                result: dict[str, Any] | None, tally: DatasetTally
                ) -> Iterator[dict[str, Any]]:
    """One row per stored action of the game, in order, with the seat's observation."""
    replay = _Replay(g, len(seats))
    transcripts = action_transcripts(lambda sql, p: conn.execute(sql, p).fetchall(), g["id"])
    pending = next(transcripts, None)
    base = {"game_id": g["id"], "env": g["env"], "preset": g["preset"],
            "rules_version": g["rules_version"]}
    for a in conn.execute(
            "SELECT idx, seat, step, turn, raw, structured, outcome, error, category, fatal, "
            "latency_ms, usage, raw_output, created FROM actions WHERE game_id = ? ORDER BY idx",
            (g["id"],)):
        transcript = None
        if pending is not None and pending[0] == a["idx"]:
            transcript = pending[1]
            pending = next(transcripts, None)
        seat = seats[a["seat"]] if a["seat"] < len(seats) else {}
        yield {**base, "idx": a["idx"], "seat": a["seat"], "player": seat.get("player"),
               "kind": seat.get("kind"), "name": seat.get("name"), "role": seat.get("role"),
               "step": a["step"], "turn": a["turn"], "observation": replay.observe(a),
               "prompt": _prompt(transcript), **_action(a), "latency_ms": a["latency_ms"],
               "usage": _usage(a["usage"]), "raw_output": a["raw_output"],
               "transcript": dumps(transcript) if transcript is not None else None,
               "at": a["created"]}
    if not replay.ends_as(result):
        tally.unreplayed += 1


def _action(a: sqlite3.Row) -> dict[str, Any]:
    """The action as the seat sent it (text as typed, or a structured action's JSON), none
    when the server moved for it (`default_move`: the env's default move it made), and how the
    rules judged it."""
    made = stored_action(a)
    text = made if isinstance(made, str) else None
    structured = None if isinstance(made, str) else dumps(made)
    defaulted = a["outcome"] == "defaulted"
    return {"action_raw": None if defaulted or a["outcome"] == "resigned" else text,
            "action_structured": None if defaulted else structured,
            "default_move": (text if text is not None else structured) if defaulted else None,
            "outcome": a["outcome"], "error": a["error"], "error_category": a["category"],
            "fatal": bool(a["fatal"])}


def _prompt(transcript: Any) -> str | None:
    """The prompt an LLM seat was given for the decision: its transcript's first user text."""
    for entry in transcript or ():
        if isinstance(entry, dict) and entry.get("role") == "user":
            content = entry.get("content")
            return content if isinstance(content, str) else None
    return None


def _usage(stored: str | None) -> dict[str, Any] | None:
    if not stored:
        return None
    usage = json.loads(stored)
    return {k: usage.get(k) for k in USAGE_FIELDS}


class _Replay:
    """The game replayed alongside its stored actions, for each seat's observation."""

    def __init__(self, g: sqlite3.Row, players: int) -> None:
        self.env: Env | None = None
        self.game: Game | None = None
        self.lost = False  # the replay stopped following the stored game
        try:
            env = get(g["env"])
            if g["rules_version"] != env.rules_version:
                raise Diverged(f"rules {g['rules_version']}, now {env.rules_version}")
            self.game = env.new_game(env.Config.from_json(json.loads(g["config"])),
                                     int(g["seed"]), players)
            self.env = env
        except (Diverged, EngineError, ValueError, TypeError, KeyError):
            self.lost = True

    def observe(self, a: sqlite3.Row) -> str | None:
        """The acting seat's view as text, then its stored action made in the replay."""
        if self.game is None or self.env is None:
            return None
        try:
            observation = self.env.render(self.game.view(a["seat"]))
        except (EngineError, ValueError, TypeError, KeyError):
            observation = None
        try:
            replay_action(self.game, a)
        except (Diverged, EngineError, ValueError, TypeError, KeyError):
            self.game, self.lost = None, True
        return observation

    def ends_as(self, result: dict[str, Any] | None) -> bool:
        """The replay followed every action and, for a finished game, reached its rewards."""
        if self.lost or self.game is None:
            return False
        if result is None or result.get("void"):
            return True
        replayed = self.game.result
        return replayed is not None and replayed.to_json()["rewards"] == result["rewards"]
