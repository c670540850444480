"""The replay screen's model: replies folded per perspective, the transcript up to a frame, what
to fetch next, and the moment kept when the perspective switches."""

from __future__ import annotations

from tui.replay_cache import KEPT_FRAMES, Perspective, ReplayCache, carry_over
from tui.session import Session


def _reply(seat, at, count, jumps, **frame):
    return {"type": "replay", "ref": 1, "game_id": 7, "table_id": "t1", "env": "secret-mafia",
            "names": ["ann", "bob"], "kinds": ["human", "bot"], "players": 2, "seat": seat,
            "live": False, "count": count, "jumps": jumps, "result": {"winners": [0]},
            "frame": {"at": at, "index": None, "clock": {}, "view": {}, "lines": [f"line {at}"],
                      "events": [], "decision": None, **frame}}


def _jumps(*starts):
    return [{"at": at, "clock": {"round": i}, "label": f"round {i}"}
            for i, at in enumerate(starts)]


def test_frames_are_kept_by_position_and_the_transcript_is_theirs_or_the_servers_before():
    cache = ReplayCache(game_id=7)
    before = {"from": 1, "lines": ["line 1"], "events": [{"seq": 1}]}
    cache.fold(_reply(None, 2, 5, _jumps(0), before=before))
    cache.fold({**_reply(None, 0, 5, _jumps(0)), "game_id": 8})  # another game's: ignored
    # Not every earlier frame is here: the frame's `before` (from frame 1: not complete).
    assert cache.transcript(None, 2) == (["line 1", "line 2"], [{"seq": 1}], False)
    cache.fold(_reply(None, 0, 5, _jumps(0)))
    cache.fold(_reply(None, 1, 5, _jumps(0)))
    assert cache.transcript(None, 2)[2]
    assert cache.lines(None, 2) == ["line 0", "line 1", "line 2"]
    assert cache.lines(None, 1) == ["line 0", "line 1"]
    assert cache.get(None).count == 5 and cache.get(0) is None
    cache.fold(_reply(None, 4, 5, _jumps(0), before={"from": 0, "lines": ["all"], "events": []}))
    assert cache.transcript(None, 4) == (["all", "line 4"], [], True)


def test_a_frame_reaches_the_env_widget_as_the_game_screen_would_give_it_with_no_turn():
    cache = ReplayCache(game_id=7)
    public = {"event": {"seq": 0, "type": "said", "visible_to": "all"}}
    private = {"seq": 1, "type": "night_chat", "visible_to": [1]}
    seats = {"0": {"public": {"phase": "day"}, "private": {"role": "Villager"}},
             "1": {"public": {"phase": "day"}, "private": {"role": "Mafia"}}}
    cache.fold(_reply(None, 0, 1, _jumps(0), view={"seats": seats, "setup": {}},
                      events=[public["event"], private]))
    s = cache.session_at(None, 0, Session(name="me", url="ws://x"))
    # The omniscient view shows the env widget what a spectator sees: public only.
    assert s.view == {"env": "secret-mafia", "seat": None, "public": {"phase": "day"},
                      "private": {}}
    assert [e["seq"] for e in s.events] == [0]
    assert s.turn is None and not s.awaiting_us and s.legal is None
    assert s.seat_name(1) == "bob" and s.game_over == {"result": {"winners": [0]}}


def test_switching_perspective_keeps_the_round_and_the_share_of_it():
    omniscient = Perspective({"count": 21, "jumps": _jumps(0, 10, 20)})
    seat = Perspective({"count": 7, "jumps": _jumps(0, 2, 6)})
    assert carry_over(omniscient, 15, seat) == 4  # half way through round 1 (frames 2..5)
    assert carry_over(omniscient, 10, seat) == 2
    assert carry_over(seat, 3, omniscient) == 12
    assert carry_over(omniscient, 0, seat) == 0
    assert carry_over(omniscient, 20, seat) == 6
    # A round the other perspective has no frame of: the same share of the whole game.
    assert carry_over(Perspective({"count": 21, "jumps": _jumps(0, 10, 15, 20)}), 16,
                      Perspective({"count": 11, "jumps": _jumps(0, 5)})) == 8


def test_a_perspective_keeps_the_frames_last_shown_and_no_more():
    cache = ReplayCache(game_id=7)
    for at in range(KEPT_FRAMES + 10):
        cache.fold(_reply(0, at, KEPT_FRAMES + 10, _jumps(0)))
        if at == KEPT_FRAMES - 1:
            assert cache.frame(0, 0) is not None  # shown again: kept longer
    kept = cache.get(0).frames
    assert len(kept) == KEPT_FRAMES
    assert 0 in kept and 1 not in kept and KEPT_FRAMES + 9 in kept
