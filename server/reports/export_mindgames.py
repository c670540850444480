"""The MindGames dataset (spec mindgames §10) from a Parlor database: one row per player
trajectory, for people's games and bots' alike.

Each finished game is replayed once from its stored actions (new game from config and seed,
then every action in order, as `Env.replay` does), and just before each action the acting seat's
own view is rendered with the env's text (`Env.render(game.view(seat))`: the text a bot's prompt
and a person's screen are made of), so an observation holds only what that seat could see then.
Games are read a page at a time by id and rows are yielded one game at a time: memory does not
grow with the number of games, and no read snapshot is held across the whole export (a server
writing beside it can keep checkpointing its log). Finished games never change, so reading a
game's seats and actions apart from its page is consistent.

Skipped: games that are not finished (running, or void: aborted, timed out, a failed provider;
the MindGames dataset discards timed-out games), and games that no longer replay to their stored
outcome (played under other rules: their observations could not be trusted).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engine.core import ActionRecord, EngineError, Env, Game
from engine.registry import get
from server.store.pseudonyms import Label

ENVS = ("codenames", "colonel-blotto", "secret-mafia", "three-player-ipd")
PAGE = 256  # games rows read at once


class Diverged(Exception):
    """The replay of a stored game does not reach its stored outcome."""


class Tally:
    """What an export wrote and skipped, for its one-line summary."""

    def __init__(self) -> None:
        self.games = 0
        self.rows = 0
        self.skipped: Counter[str] = Counter()
        self.left_out: dict[str, tuple[int, str]] = {}  # env -> (games, why), other envs'

    def summary(self, where: str) -> str:
        skipped = sum(self.skipped.values())
        why = ", ".join(f"{n} {reason}" for reason, n in sorted(self.skipped.items()))
        return (f"wrote {self.rows} rows ({self.games} games) to {where}; skipped {skipped} "
                f"games" + (f" ({why})" if why else "") + self.said_left_out())

    def said_left_out(self) -> str:
        """"; left out N ENV games (why); ..." or nothing, for the end of the summary."""
        left = "; ".join(f"{n} {env} game{'s' * (n != 1)} ({reason})"
                         for env, (n, reason) in self.left_out.items())
        return f"; left out {left}" if left else ""

    def count_left_out(self, conn: sqlite3.Connection, envs: tuple[str, ...],
                       own: tuple[str, ...], formats: dict[str, tuple[str, ...]]) -> None:
        """The games of the database's other envs, by env, with why they are not in this
        export (`own`: the format's envs): --env left them out, another format holds them, or
        none does."""
        for env, n in conn.execute(
                "SELECT env, count(*) FROM games WHERE env NOT IN (SELECT value FROM "
                "json_each(?)) GROUP BY env ORDER BY env", (json.dumps(list(envs)),)):
            elsewhere = [f for f, covered in formats.items() if env in covered]
            if env in own:
                reason = "not chosen by --env"
            elif elsewhere:
                reason = f"exported by --format {' or '.join(elsewhere)}"
            else:
                reason = "no export format holds this environment's games yet"
            self.left_out[env] = (n, reason)


def games(conn: sqlite3.Connection, envs: tuple[str, ...],
          columns: str = "id, env, rules_version, config, seed, status, reason, result"
          ) -> Iterator[sqlite3.Row]:
    """The games of `envs` in id order (`columns` of each), PAGE rows per query."""
    after = 0
    while True:
        page = conn.execute(
            f"SELECT {columns} FROM games WHERE id > ? AND env IN (SELECT value FROM "
            f"json_each(?)) ORDER BY id LIMIT ?",
            (after, json.dumps(list(envs)), PAGE)).fetchall()
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1]["id"]


def finished(conn: sqlite3.Connection, envs: tuple[str, ...], tally: Tally
             ) -> Iterator[sqlite3.Row]:
    """The finished games of `envs`; `tally` counts the void and unfinished ones skipped."""
    for g in games(conn, envs):
        if g["status"] == "finished":
            yield g
        else:
            tally.skipped["void" if g["status"] == "void" else "unfinished"] += 1


def rows(conn: sqlite3.Connection, envs: tuple[str, ...], tally: Tally, label: Label
         ) -> Iterator[dict[str, Any]]:
    """The dataset's rows, game by game, seat by seat; `tally` counts what was skipped;
    `label(identity, kind)` names a player (a person's pseudonym unless names were asked)."""
    for g in finished(conn, envs, tally):
        seats = [{**dict(s), "identity": label(s["identity"], s["kind"])} for s in conn.execute(
            "SELECT seat, identity, kind, status, reward FROM seats WHERE game_id = ? "
            "ORDER BY seat", (g["id"],))]
        try:
            turns = trajectories(conn, g, len(seats))
        except (Diverged, EngineError, ValueError, TypeError, KeyError):
            tally.skipped["that no longer replay (other rules)"] += 1
            continue
        tally.games += 1
        for seat in seats:
            tally.rows += 1
            yield row(g, seats, seat["seat"], turns[seat["seat"]])


def row(g: sqlite3.Row, seats: list[dict[str, Any]], me: int, turns: list[dict[str, Any]]
        ) -> dict[str, Any]:
    """One player trajectory (spec §10) and two extras: the seat's role and the rules."""
    names = {str(s["seat"]): s["identity"] for s in seats}
    roles = json.loads(g["result"]).get("roles") if g["result"] else None
    return {"player_game_id": f"{g['id']}-{me}", "game_id": g["id"], "env_name": g["env"],
            "model_name": names[str(me)], "player_id": me,
            "opponent_names": {k: v for k, v in names.items() if k != str(me)},
            "rewards": {str(s["seat"]): s["reward"] for s in seats},
            "observations": turns, "num_turns": len(turns), "status": seats[me]["status"],
            "reason": g["reason"], "role": roles[me] if roles else None,
            "rules_version": g["rules_version"]}


def trajectories(conn: sqlite3.Connection, g: sqlite3.Row, players: int
                 ) -> list[list[dict[str, Any]]]:
    """Each seat's turns, replaying the game once: the seat's view as text just before each of
    its actions, then the action as stored. Raises Diverged if the replay strays."""
    env = get(g["env"])
    if g["rules_version"] != env.rules_version:
        raise Diverged(f"rules {g['rules_version']}, now {env.rules_version}")
    game = env.new_game(env.Config.from_json(json.loads(g["config"])), int(g["seed"]),
                         players)
    turns: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for a in conn.execute("SELECT seat, step, raw, structured, outcome, error, category, fatal "
                          "FROM actions WHERE game_id = ? ORDER BY idx", (g["id"],)):
        seat = a["seat"]
        mine = turns[seat]
        mine.append(_turn(env, game, a, len(mine)))
    result = game.result
    stored = json.loads(g["result"]) if g["result"] else None
    if result is None or stored is None or result.to_json()["rewards"] != stored["rewards"]:
        raise Diverged("the replay ends with other rewards")
    return turns


def _turn(env: Env, game: Game, a: sqlite3.Row, index: int) -> dict[str, Any]:
    """Render the seat's view, make its stored action, and describe the turn: the action as the
    seat sent it (text as typed, a structured action as its object; null when the server moved
    for it), and how it was judged."""
    outcome = a["outcome"]
    observation = env.render(game.view(a["seat"]))
    raw = stored_action(a)
    turn: dict[str, Any] = {"turn": index, "step": a["step"], "observation": observation,
                            "action": raw, "outcome": outcome, "error": a["error"],
                            "category": a["category"], "fatal": bool(a["fatal"])}
    if outcome == "defaulted":  # the server played the env's default move for the seat
        turn["action"], turn["default_move"] = None, raw
    elif outcome == "resigned":
        turn["action"] = None
    replay_action(game, a)
    return turn


def stored_action(a: sqlite3.Row) -> str | dict[str, Any]:
    """A stored action as it was made: text as typed, a structured action as its object."""
    return json.loads(a["raw"]) if a["structured"] else a["raw"]


def replay_action(game: Game, a: sqlite3.Row) -> None:
    """Make a stored action (seat, step, raw, structured, outcome, error) again in `game`, the
    way it was made (`Env.replay_action`); Diverged when the rules judge it otherwise now."""
    Env.replay_action(game, ActionRecord(a["seat"], a["step"], stored_action(a), a["outcome"],
                                         a["error"]))
    replayed = game.last_action()
    if replayed is None or replayed.outcome != a["outcome"] or replayed.step != a["step"]:
        raise Diverged(f"step {a['step']} replays as {replayed and replayed.outcome}")
