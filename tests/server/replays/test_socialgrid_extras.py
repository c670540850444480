"""SocialGrid's replay extras (server/replays/socialgrid.py) over a stored game: vote sessions
and trust series placed at the positions of the perspective's frames, the omniscient
perspective with every voter's reasons, and a seat's with only its own — two games that differ
only in another seat's trust and reasons give that seat identical extras."""

from __future__ import annotations

import copy
import json

import pytest

from engine.records import ActionRecord
from engine.socialgrid.records import ballot_votes
from engine.socialgrid.trust import trust_series
from server.replays.extras import extras_for
from server.replays.replay import Replay
from tests.server.replays.sg_game import stored_game


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> Replay:
    return stored_game(tmp_path_factory.mktemp("sg") / "games.db")


def _events(frames, kind):
    return [(at, e["data"]) for at, f in enumerate(frames) for e in f.events if e["type"] == kind]


def test_omniscient_sessions_and_trust_sit_where_the_frames_show_them(replay):
    frames = replay.seen(None)
    extras = extras_for(replay, None, frames)
    assert json.loads(json.dumps(extras)) == extras  # plain JSON
    sessions = extras["sessions"]
    results = _events(frames, "vote_result")
    assert [(s["at"], s["meeting"]) for s in sessions] == [(at, r["meeting"]) for at, r in results]
    assert [s["called_at"] for s in sessions] == [at for at, _ in _events(frames,
                                                                          "meeting_called")]
    ballots = {d["meeting"]: d for _, d in _events(frames, "ballots")}
    for session, (_, result) in zip(sessions, results, strict=True):
        assert session["tally"] == result["tally"] and session["ejected"] == result["ejected"]
        secret = ballots[session["meeting"]]["ballots"]
        assert {str(b["voter"]): b["target"] for b in session["ballots"]} == result["votes"]
        assert {str(b["voter"]): b["reason"] for b in session["ballots"]} == \
            {v: b["thought"] for v, b in secret.items()}
        assert all(b["reason"] for b in session["ballots"])  # the scripted agents give reasons
    ejecting = [s for s in sessions if s["ejected"] is not None]
    assert ejecting and ejecting[-1]["role_announced"] and ejecting[-1]["role"] == "impostor"

    votes = [v for _, d in _events(frames, "ballots") for v in ballot_votes(d)]
    ends = [s["at"] for s in sessions]
    for voter in range(replay.data["players"]):
        series = trust_series(votes, voter)
        placed = extras["trust"].get(str(voter), {})
        assert {int(k): [t for _, t in p] for k, p in placed.items()} == series
        assert all(at in ends for p in placed.values() for at, _ in p)
    kills = _events(frames, "kill")
    assert [(b["from"], b["victim"]) for b in extras["bodies"]] == \
        [(at, k["victim"]) for at, k in kills]
    assert all(b["until"] in [s["called_at"] for s in sessions] for b in extras["bodies"])


def test_a_seat_sees_every_tally_but_only_its_own_reasons_and_trust(replay):
    seat = 0
    frames = replay.seen(seat)
    extras = extras_for(replay, seat, frames)
    assert extras["reasons"] == "own" and extras["doors"] == []  # traces are nobody's
    results = _events(frames, "vote_result")
    assert [s["at"] for s in extras["sessions"]] == [at for at, _ in results]
    assert all(frames[s["at"]].index == replay.seen(None)[o["at"]].index
               for s, o in zip(extras["sessions"], extras_for(replay, None, replay.seen(None))
                               ["sessions"], strict=True))
    for session in extras["sessions"]:
        for ballot in session["ballots"]:
            if ballot["voter"] == seat:
                assert ballot["reason"] and ballot["trust"]
            else:
                assert ballot["reason"] is None and ballot["trust"] is None
    assert set(extras["trust"]) == {str(seat)}
    everything = extras_for(replay, None, replay.seen(None))
    assert extras["trust"][str(seat)] != {}
    assert {k: [t for _, t in p] for k, p in extras["trust"][str(seat)].items()} == \
        {k: [t for _, t in p] for k, p in everything["trust"][str(seat)].items()}


def _with_other_ballots(replay: Replay, seat: int) -> Replay:
    """The same game but `seat`'s ballots carry other trust scores and another reason (the
    same votes, so the game goes the same way); its events made again by the engine."""
    data = copy.deepcopy(replay.to_json())
    for action in data["actions"]:
        raw = action["raw"]
        if action["seat"] == seat and isinstance(raw, dict) and "vote" in raw:
            raw.update({k: 0.99 for k in raw if k.startswith("trust_")},
                       thought="SECRET: I know who it is.")
    env = replay.env
    game = env.new_game(env.Config.from_json(data["config"]), int(data["seed"]),
                        data["players"])
    for action in data["actions"]:
        env.replay_action(game, ActionRecord.from_json(action))
    data["events"] = [e.to_json() for e in game.events]
    return Replay(data)


def test_another_seats_trust_and_reasons_never_reach_a_seats_extras(replay):
    me, other = 0, 1
    changed = _with_other_ballots(replay, other)
    assert "SECRET" in json.dumps(extras_for(changed, None, changed.seen(None)))
    assert extras_for(changed, None, changed.seen(None)) != \
        extras_for(replay, None, replay.seen(None))
    assert extras_for(changed, other, changed.seen(other)) != \
        extras_for(replay, other, replay.seen(other))
    for seat in range(replay.data["players"]):
        if seat != other:
            assert extras_for(changed, seat, changed.seen(seat)) == \
                extras_for(replay, seat, replay.seen(seat)), seat
    assert "SECRET" not in json.dumps(extras_for(changed, me, changed.seen(me)))
