"""A small stored SocialGrid game for replay tests (played by `parlor sim` with the scripted
agents into a real SQLite file): a kill, a body found at a scheduled meeting, a vote that
ejects the impostor with its role announced. And the `replay` message as the wire contract
shapes it (docs/replays.md), built from a Replay directly."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from server.cli import main
from server.replays.extras import extras_for
from server.replays.replay import Frame, Replay

CONFIG = {"room_size": 7, "rows": 1, "cols": 2, "impostors": 1, "max_steps": 40,
          "vote_interval": 12, "kill_cooldown": 3}
SEATS, SEED = 5, 6


def stored_game(db: Path) -> Replay:
    config = [arg for key, value in CONFIG.items() for arg in ("--config", f"{key}={value}")]
    args = ["sim", "socialgrid", *["--seat", "scripted:agent"] * SEATS, *config, "--games", "1",
            "--seed", str(SEED), "--quiet", "--db", str(db)]
    assert main(args) == 0
    conn = sqlite3.connect(db)
    try:
        gid = conn.execute("SELECT id FROM games WHERE env = 'socialgrid'").fetchone()[0]
        return Replay.from_db(conn, gid)
    finally:
        conn.close()


def frame_json(frame: Frame, at: int, seat: int | None) -> dict[str, Any]:
    d = frame.decision
    return {"at": at, "index": frame.index if seat is None else None, "clock": dict(frame.clock),
            "view": frame.view, "lines": list(frame.lines), "events": list(frame.events),
            "decision": None if d is None else {
                "seat": d.seat, "kind": d.kind, "raw": d.raw, "outcome": d.outcome,
                "error": d.error, "raw_output": d.raw_output, "transcript": d.transcript,
                "usage": d.usage, "latency_ms": d.latency_ms, "think_seconds": d.think_seconds}}


def replay_message(replay: Replay, seat: int | None, frames: list[Frame]) -> dict[str, Any]:
    """The `replay` message's whole-game part (without its `frame`)."""
    data = replay.data
    return {"game_id": data.get("game_id"), "table_id": None, "env": replay.env.id,
            "title": replay.env.title, "rules_version": data["rules_version"],
            "preset": data.get("preset"), "names": list(replay.names),
            "kinds": list(replay.kinds), "players": data["players"], "seat": seat,
            "live": False, "count": len(frames), "jumps": [],
            "extras": extras_for(replay, seat, frames), "result": data.get("result"),
            "aborted": data.get("aborted")}
