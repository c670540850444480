"""What `forget` does to a game's texts (server/store/forget.py): a person's chat (typed as the
TUI sends it) and the bots' prompts quoting it are redacted; a move the rules judge by its text
is kept; a game that no longer replays is redacted in place. The games are stored through the
store's own rows, as a table stores them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine.registry import get
from server.store.forget import MARKER, forget
from server.store.store import Rows, Store, event_rows

SYSTEM = "You play the three-player iterated prisoner's dilemma. " * 6  # stored once, by hash
ZELDA_SAYS = "I am zelda9  from\tPorto, trust me"  # cleaned as chat is, when said


def _decision(seat: int, verb: str = "cooperate") -> str:
    return " ".join(f"[{o} {verb}]" for o in range(3) if o != seat)


async def _store_game(db: Path) -> int:
    """An IPD game: zelda (seat 0) chats as the TUI sends it and defects once in round 1 (a
    move the rules judge by its text); bob says her name; an LLM seat's prompts quote her."""
    env = get("three-player-ipd")
    config = env.config(None, {"rounds": 2})
    game = env.new_game(config, 7, 3)
    store = await Store.open(db)
    game_id = await store.create_game(
        table_id="t1", env=env.id, rules_version=env.rules_version, preset=None,
        config=config.to_json(), seed=7,
        seats=[{"identity": "human:zelda9", "name": "zelda9", "kind": "human"},
               {"identity": "human:bob", "name": "bob", "kind": "human"},
               {"identity": "openai:fake", "name": "openai:fake", "kind": "bot"}])
    await store.write_rows(Rows(events=event_rows(game_id, game.events)))  # as a table opens
    heard: list[str] = []
    decisions = 0
    while not game.over:
        seat = min(game.pending())
        chat = game.legal(seat).kind == "text"
        transcript = None
        if seat == 0:
            decisions += not chat
            action = {"text": ZELDA_SAYS} if chat else _decision(0, "defect" if decisions == 1
                                                                 else "cooperate")
        elif seat == 1:
            action = "hello zelda9, cooperate with me" if chat else _decision(1)
        else:
            action = "agreed" if chat else _decision(2)
            prompt = "History:\n" + "\n".join(heard) + "\nYour move." + " ." * 120
            transcript = [{"role": "system", "content": SYSTEM},
                          {"role": "user", "content": prompt},
                          {"role": "assistant", "content": str(action)}]
        if chat:
            heard.append(f"Player {seat}: {action['text'] if isinstance(action, dict) else action}")
        events = game.act(seat, action, meta={"latency_ms": 5.0})
        await store.write_rows(store.action_rows(game_id, game.step - 1, game.last_action(),
                                                 events, transcript=transcript))
    await store.finish_game(game_id, record=game.record(), statuses={0: "finished"},
                            metrics=env.game_metrics(game.record()))
    await store.close()
    return game_id


def _file_text(db: Path) -> bytes:
    return b"".join(p.read_bytes().lower() for p in db.parent.glob(db.name + "*"))


async def test_chat_and_prompts_are_redacted_and_a_judged_move_is_kept(tmp_path):
    db = tmp_path / "p.db"
    game_id = await _store_game(db)
    assert b"porto" in _file_text(db) and b"zelda9" in _file_text(db)
    report = await forget(str(db), "zelda9")
    assert report.games == 1 and not report.unreplayable and not report.residue
    assert report.kept == 1  # round 1's defection: "[removed]" would read as cooperating
    assert report.removed >= 2  # her chat lines, bob's line naming her
    text = _file_text(db)
    assert b"porto" not in text and b"zelda9" not in text

    store = await Store.open(db)
    try:
        record = await store.load_record(game_id)
        replayed = get(record.env).replay(record)
        assert replayed.events == record.events and replayed.result.rewards == \
            record.result.rewards
        zelda = [a.raw for a in record.actions if a.seat == 0]
        assert {"text": MARKER} in zelda and _decision(0, "defect") in zelda
        prompts = await store.transcripts(game_id)
        assert prompts and all(t[0]["content"] == SYSTEM for t in prompts.values())
        later = prompts[max(prompts)][1]["content"]
        assert f"Player 0: {MARKER}" in later and "Player 1: hello [removed], cooperate" in later
    finally:
        await store.close()


async def test_a_game_that_no_longer_replays_is_redacted_in_place(tmp_path):
    db = tmp_path / "p.db"
    game_id = await _store_game(db)
    with sqlite3.connect(db) as conn:  # as if the rules had changed since it was played
        conn.execute("UPDATE events SET type = 'renamed' WHERE game_id = ? AND seq = 0",
                     (game_id,))
    report = await forget(str(db), "zelda9")
    assert report.unreplayable == [game_id] and not report.residue
    assert b"porto" not in _file_text(db) and b"zelda9" not in _file_text(db)
    with sqlite3.connect(db) as conn:
        chats = [r[0] for r in conn.execute("SELECT data FROM events WHERE type = 'chat' AND "
                                            "json_extract(data, '$.seat') = 0")]
    assert chats and all(MARKER in c for c in chats)
