"""The SocialMaze answers of a Parlor database: one row per answer a player gave, people's and
bots' alike, so human baselines and model results are read from one file the same way.

A row holds the game (id, env, rules version, preset), the instance (id and content hash from
the game's hidden setup, where it came from), the player (identity, person or bot, seat), which
answer it was (Hidden Role's round, Social Graph's question, a dataset task's stage; Find the
Spy's one vote), the answer as the env read it, the expected answer, whether it was right and
the env's finer scores (Crim/Self/Both, a field each), and the decision's time (the stored
action's latency: a bot's call, a person's think time) and outcome (`defaulted` when the server
answered for a seat whose time ran out). Read from the stored events, never replayed: the
events are what was scored. Games are read a page at a time; memory stays flat.

Skipped, as in the MindGames export: unfinished and void games.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from server.reports.export_mindgames import Tally, finished
from server.store.pseudonyms import Label

ENVS = ("find-the-spy", "hidden-role", "rating-estimation", "review-decision", "social-graph",
        "user-profile")
_EVENTS = ("answer_scored", "scores", "vote", "votes_revealed")

__all__ = ["ENVS", "Tally", "rows"]


def rows(conn: sqlite3.Connection, envs: tuple[str, ...], tally: Tally, label: Label
         ) -> Iterator[dict[str, Any]]:
    """One row per answer; `label(identity, kind)` names a player (a person's pseudonym
    unless names were asked)."""
    for g in finished(conn, envs, tally):
        tally.games += 1
        for row in _answers(conn, g, label):
            tally.rows += 1
            yield row


def _answers(conn: sqlite3.Connection, g: sqlite3.Row, label: Label
             ) -> Iterator[dict[str, Any]]:
    game_id = g["id"]
    extra = conn.execute("SELECT preset, setup FROM games WHERE id = ?", (game_id,)).fetchone()
    setup = json.loads(extra["setup"]) if extra["setup"] else {}
    seats = {s["seat"]: s for s in conn.execute(
        "SELECT seat, identity, kind FROM seats WHERE game_id = ?", (game_id,))}
    actions = {(a["seat"], a["step"]): a for a in conn.execute(
        "SELECT seat, step, latency_ms, outcome, created FROM actions WHERE game_id = ? AND "
        "outcome != 'invalid'", (game_id,))}
    events = [(e["step"], e["type"], json.loads(e["data"])) for e in conn.execute(
        "SELECT step, type, data FROM events WHERE game_id = ? AND type IN (SELECT value FROM "
        "json_each(?)) ORDER BY seq", (game_id, json.dumps(_EVENTS)))]
    base = {"game_id": game_id, "env_name": g["env"], "rules_version": g["rules_version"],
            "preset": extra["preset"], **_instance(setup),
            "expected_label": setup.get("answer_label")}
    for seat, step, answer in _scored(g["env"], events, setup):
        player = seats.get(seat)
        action = actions.get((seat, step))
        yield {**base, "player": label(player["identity"], player["kind"]) if player else None,
               "player_kind": player["kind"] if player else None, "seat": seat, **answer,
               "latency_ms": action["latency_ms"] if action else None,
               "outcome": action["outcome"] if action else None,
               "answered_at": action["created"] if action else None}


def _instance(setup: dict[str, Any]) -> dict[str, Any]:
    """The instance's id, hash and source. A Find the Spy game dealt from its seed (no
    recording) has no stored instance: its id is the deal itself, "CIVILIAN/SPY/P<spy player>"
    (revealed in the setup at the end), so the same deal is found across players; source
    "dealt"."""
    found = setup.get("instance_id", setup.get("recording_id"))
    if found is None and "civilian_word" in setup:
        return {"instance_id": f"{setup['civilian_word']}/{setup['spy_word']}/"
                               f"P{setup['spy_player']}",
                "content_hash": None, "source": "dealt"}
    return {"instance_id": found, "content_hash": setup.get("content_hash"),
            "source": setup.get("source")}


def _scored(env: str, events: list[tuple[int, str, dict[str, Any]]], setup: dict[str, Any]
            ) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(seat, step, the answer's fields) for each answer, in the order given."""
    if env == "find-the-spy":
        revealed = next((d for _, t, d in events if t == "votes_revealed"), {})
        spy = revealed.get("spy")
        for step, type_, data in events:
            if type_ == "vote":
                yield data["seat"], step, {
                    "number": 1, "answer": {"player": data["player"]},
                    "expected": {"player": None if spy is None else spy + 1},
                    "right": data["seat"] in revealed.get("right", ())}
        return
    expected_questions = next((d.get("questions") for _, t, d in events if t == "scores"), None)
    number = 0
    for step, type_, data in events:
        if type_ != "answer_scored":
            continue
        number += 1
        if env == "hidden-role":
            answer = {"answer": {"criminal": data["criminal"], "role": data["role"]},
                      "expected": setup.get("answer"), "right": data["both"],
                      "scores": {k: data[k] for k in ("crim", "self", "both")},
                      "position": {"round": data["round"]}}
        elif env == "social-graph":
            asked = (expected_questions or [{}] * number)[number - 1]
            answer = {"answer": data["answer"], "expected": asked.get("expected"),
                      "right": data["right"], "position": {"question": data["number"],
                                                           "kind": data["kind"],
                                                           "text": data["question"]}}
        else:  # the dataset tasks
            answer = {"answer": data["answer"], "expected": data["expected"],
                      "right": data["right"], "scores": data["fields"],
                      "position": {"stage": data["stage"], "kind": data.get("kind") or None}}
        yield 0, step, {"number": number, **answer}
