"""Replays (server/replays/, `parlor replay`): every env's stored games rebuilt and checked
against their stored events, perspectives that keep each seat's secrets, a tampered game
reported, the replay file opened without the database, and the command end to end. The games
are played by `parlor sim` into a real SQLite file."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.registry import env_ids, get
from server.cli import main
from server.replays.replay import Replay, ReplayError, ReplayMismatch, _plain


def _engine_envs() -> list[str]:  # not the envs tests register
    return [e for e in env_ids() if type(get(e)).__module__.startswith("engine.")]


SMALL = {"colonel-blotto": ["--preset", "small"],
         "socialgrid": ["--config", "max_steps=60", "--config", "vote_interval=20"]}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replays") / "games.db"
    for env_id in _engine_envs():
        env = get(env_id)
        seats = env.preset_default_players(env.config(None))
        args = ["sim", env_id, *["--seat", "random"] * seats, *SMALL.get(env_id, []),
                "--games", "1", "--seed", "3", "--quiet", "--db", str(path)]
        assert main(args) == 0, env_id
    return path


def _games(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {env: gid for gid, env in conn.execute("SELECT id, env FROM games")}


def _replay(db: Path, env_id: str) -> Replay:
    conn = sqlite3.connect(db)
    try:
        return Replay.from_db(conn, _games(db)[env_id])
    finally:
        conn.close()


def _frames_json(replay: Replay, seat: int | None) -> str:
    return json.dumps([[f.index, f.clock, f.view, f.lines, f.decision and f.decision.__dict__]
                       for f in replay.frames(seat)], sort_keys=True, default=str)


def test_every_env_replays_to_its_stored_events_and_its_file_to_the_same_frames(db, tmp_path):
    games = _games(db)
    assert sorted(games) == sorted(_engine_envs())
    for env_id in games:
        replay = _replay(db, env_id)
        replay.check()
        frames = replay.frames(0)
        assert [f.index for f in frames] == list(range(len(replay.actions) + 1)), env_id
        assert replay.jumps()[0][0] == 0
        file = tmp_path / f"{env_id}.json"
        file.write_text(json.dumps(replay.to_json()))
        again = Replay.from_file(file)
        for seat in (0, None):
            assert _frames_json(again, seat) == _frames_json(replay, seat), env_id
        assert again.markdown() == replay.markdown()


def _before_the_end(replay: Replay, seat: int) -> str:
    """Everything the seat's frames show before the last action (which ends the game and
    reveals the setup to everyone)."""
    frames = replay.frames(seat)
    assert "game_over" not in json.dumps(frames[-2].view)
    return json.dumps([[f.view, f.lines, f.decision and f.decision.__dict__]
                       for f in frames[:-1]], default=str)


def test_a_villager_never_sees_the_mafia_before_the_end_and_omniscient_does(db):
    replay = _replay(db, "secret-mafia")
    roles = replay.data["result"]["roles"]
    villager = roles.index("Villager")
    seen = _before_the_end(replay, villager)
    assert not re.search(r"fellow Mafia|Your role: Mafia|is a Mafia member", seen)
    assert "Your role: Villager" in seen
    assert all(f.decision is None or f.decision.seat == villager
               for f in replay.frames(villager))
    omniscient = replay.frames(None)
    assert any("fellow Mafia" in line for line in omniscient[0].lines)
    lines = [line for f in omniscient for line in f.lines]
    assert not any(line.startswith("[to ]") for line in lines)
    assert any(line.startswith("[to nobody] ") for line in lines)  # the night's tally
    assert [r["name"] for r in omniscient[0].view["setup"]["roles"]] == roles
    mafia = roles.index("Mafia")
    assert any("fellow Mafia" in line for line in replay.frames(mafia)[0].lines)


def test_a_seat_steps_only_through_what_it_saw(db):
    """`seen(seat)`: Secret Mafia's night actions a villager took no part in fold away (how
    many there were is not the villager's to know); each kept frame shows something new; the
    last frame is the final state; omniscient keeps every step."""
    replay = _replay(db, "secret-mafia")
    villager = replay.data["result"]["roles"].index("Villager")
    frames, seen = replay.frames(villager), replay.seen(villager)
    assert len(seen) < len(frames)
    assert seen[-1].view == frames[-1].view and seen[0] == frames[0]
    for before, f in zip(seen, seen[1:], strict=False):
        assert not f.blank() or f.view != before.view
    assert all(e["visible_to"] == "all" or villager in e["visible_to"]
               for f in seen for e in f.events)
    assert len(replay.seen(None)) == len(replay.actions) + 1
    assert any(e["visible_to"] != "all" for f in replay.seen(None) for e in f.events)


@pytest.mark.parametrize("env_id, odd_one, words", [
    ("impostor", "impostor", ("majority_word", "impostor_word")),
    ("find-the-spy", "spy", ("civilian_word", "spy_word"))])
def test_a_seat_never_sees_the_other_sides_word_and_omniscient_does(db, env_id, odd_one,
                                                                    words):
    replay = _replay(db, env_id)
    setup = replay.frames(None)[0].view["setup"]
    majority_word, odd_word = (setup[w] for w in words)
    odd_seat = setup[odd_one]
    other = (odd_seat + 1) % replay.data["players"]
    assert not re.search(rf"\b{majority_word}\b", _before_the_end(replay, odd_seat))
    assert not re.search(rf"\b{odd_word}\b", _before_the_end(replay, other))
    assert re.search(rf"\b{odd_word}\b", _before_the_end(replay, odd_seat))
    omniscient = json.dumps([f.view for f in replay.frames(None)[:1]])
    assert majority_word in omniscient and odd_word in omniscient


def _tampered(db: Path, tmp_path: Path, sql: str, env_id: str = "colonel-blotto") -> Path:
    copy = tmp_path / "tampered.db"
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute(sql, (_games(db)[env_id],))
    return copy


def test_a_tampered_game_is_a_mismatch_naming_the_first_differing_event(db, tmp_path, capsys):
    replay = _replay(db, "colonel-blotto")
    first = replay.stored_events[3]
    copy = _tampered(db, tmp_path, f"UPDATE events SET data = json_set(data, '$.tampered', 1) "
                                   f"WHERE game_id = ? AND seq = {first.seq}")
    with sqlite3.connect(copy) as conn, pytest.raises(ReplayMismatch,
                                                      match=f"event {first.seq} differs"):
        Replay.from_db(conn, _games(db)["colonel-blotto"]).frames(0)
    gid = str(_games(db)["colonel-blotto"])
    assert main(["replay", gid, "--db", str(copy)]) == 1
    assert "does not match" in capsys.readouterr().err

    assert set(replay.actions[0].raw) == {"A", "B", "C"}  # the random bot's structured move
    copy = _tampered(db, tmp_path, "UPDATE actions SET raw = json_object('A', raw ->> 'B', "
                                   "'B', raw ->> 'C', 'C', raw ->> 'A') "
                                   "WHERE game_id = ? AND idx = 0")  # the same troops, moved
    with sqlite3.connect(copy) as conn, pytest.raises(ReplayMismatch, match="event"):
        Replay.from_db(conn, _games(db)["colonel-blotto"]).check()

    copy = _tampered(db, tmp_path, "UPDATE games SET rules_version = 'old' WHERE id = ?")
    with sqlite3.connect(copy) as conn, pytest.raises(ReplayMismatch, match="rules old"):
        Replay.from_db(conn, _games(db)["colonel-blotto"]).check()


def test_a_persons_think_time_runs_from_when_their_turn_began(db):
    data = _replay(db, "colonel-blotto").to_json()
    data["kinds"] = ["human", "bot"]
    data["started"] = 1000.0
    for i, action in enumerate(data["actions"]):
        action["created"] = 1000.0 + 10 * (i + 1)
    replay = Replay(data)
    decisions = replay.decisions()
    # Blotto's rounds are simultaneous: both seats are awaited from the round's start (the
    # game's start, then the action that ended the round before), the second answers later.
    assert [(d.seat, d.think_seconds) for d in decisions[:4]] == \
        [(0, 10.0), (1, None), (0, 10.0), (1, None)]
    data["kinds"] = ["human", "human"]
    assert [d.think_seconds for d in Replay(data).decisions()[:4]] == [10.0, 20.0, 10.0, 20.0]


def test_the_command_prints_saves_and_reopens_a_replay_and_refuses_bad_input(db, tmp_path,
                                                                           capsys):
    gid = str(_games(db)["secret-mafia"])
    assert main(["replay", gid, "--db", str(db), "--omniscient"]) == 0
    omniscient = capsys.readouterr().out
    assert "fellow Mafia" in omniscient
    file, md = tmp_path / "game.json", tmp_path / "game.md"
    assert main(["replay", gid, "--db", str(db), "--export", str(file)]) == 0
    assert json.loads(file.read_text())["format"] == "parlor-replay"
    capsys.readouterr()
    assert main(["replay", str(file)]) == 0
    assert capsys.readouterr().out == omniscient
    roles = json.loads(file.read_text())["result"]["roles"]
    villager = roles.index("Villager")
    assert main(["replay", str(file), "--seat", str(villager), "--markdown", str(md)]) == 0
    text = md.read_text()
    assert text.startswith("# Secret Mafia") and "Your role: Villager" in text
    assert "Your role: Mafia" not in text
    capsys.readouterr()
    for argv in (["replay", "999", "--db", str(db)], ["replay", str(md)],
                 ["replay", "nonsense"], ["replay", gid, "--db", str(db), "--seat", "9"],
                 ["replay", gid, "--db", str(md)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("parlor replay: ") and err.count("\n") == 1, err
    with pytest.raises(ReplayError, match="not a Parlor replay"):
        Replay({"format": "other"})


def test_a_replay_opens_from_a_running_store_too(db):
    import asyncio

    from server.store.store import Store

    async def frames() -> str:
        store = await Store.open(db)
        try:
            gid = _games(db)["three-player-ipd"]
            replay = await store.read_with(lambda conn: Replay.from_db(conn, gid))
        finally:
            await store.close()
        return _frames_json(replay, 1)

    assert asyncio.run(frames()) == _frames_json(_replay(db, "three-player-ipd"), 1)


def test_frames_share_what_did_not_change_with_the_frame_before(db):
    frames = _replay(db, "socialgrid").frames(None)
    pairs = list(zip(frames, frames[1:], strict=False))
    assert all(b.view["setup"] is a.view["setup"] for a, b in pairs
               if b.view["setup"] == a.view["setup"])
    seats = [(a.view["seats"][s], b.view["seats"][s]) for a, b in pairs for s in a.view["seats"]]
    assert any(x is y for x, y in seats) and any(x != y for x, y in seats)
    assert all(x is y for x, y in seats if x == y)


def test_the_rewinder_gives_any_frames_view_in_any_order_as_the_full_rebuild_does(db):
    """The server's omniscient frames make their views when shown: forward, back across
    checkpoints and far jumps give exactly `frames(None)`'s views; the forks it starts from
    are untouched by the cursor's moves."""
    replay = _replay(db, "socialgrid")
    full = replay.frames(None)
    assert [f.view for f in replay.frames(None, views=False)] == [{}] * len(full)
    rewinder = replay.rewinder()
    rewinder.CHECKPOINT = 16
    last = len(full) - 1
    assert last > 3 * rewinder.CHECKPOINT
    order = [last, 0, 1, 2, last // 2, last // 2 - 1, 17, 16, 15, last - 1, 40, last]
    for index in order:
        assert rewinder.view(index) == full[index].view, index
    assert rewinder.view(last + 5) == full[last].view  # past the end: the last
    start = rewinder.checkpoints[16]
    assert rewinder.game_at(40).step == 40 and start.step == 16
    assert _plain(start.fork().view(None)) == _plain(start.view(None))
