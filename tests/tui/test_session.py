"""The session model and the screen routing follow server messages only."""

from __future__ import annotations

from tui.router import next_screen
from tui.session import Session, watching_text


def _table(status: str) -> dict:
    return {"id": "t9", "env": "colonel-blotto", "status": status,
            "seats": [{"seat": 0, "name": "Commander Alpha", "kind": "human", "identity": None,
                       "player": "ann", "connected": True},
                      {"seat": 1, "name": "Commander Beta", "kind": "bot",
                       "identity": "random", "player": None, "connected": True}]}


def test_a_game_moves_from_waiting_room_to_game_to_result():
    s = Session(name="ann", url="ws://x")
    msg = {"type": "table", "table": _table("waiting"), "your_seat": 0}
    s.apply(msg)
    assert next_screen(s, msg, "lobby").KIND == "table"
    turn = {"type": "your_turn", "table_id": "t9", "seat": 0, "turn": 4, "view": {"public": {}},
            "legal": {"kind": "text", "prompt": "go"}, "text": "", "deadline": None}
    s.apply(turn)
    assert next_screen(s, turn, "table").KIND == "game"
    assert s.awaiting_us and s.legal == {"kind": "text", "prompt": "go"}
    s.answered()
    assert not s.awaiting_us and s.legal is None
    s.apply({"type": "error", "code": "bad_action", "message": "no", "ref": 3})
    assert s.awaiting_us  # a refused action leaves the turn open
    over = {"type": "game_over", "table_id": "t9", "game_id": 1,
            "result": {"rewards": {"0": 1.0, "1": -1.0}}}
    s.apply(over)
    assert next_screen(s, over, "game").KIND == "result" and not s.awaiting_us
    assert s.seat_name(0) == "ann" and s.seat_name(1) == "random"


def test_messages_about_other_tables_are_ignored():
    s = Session(name="ann", url="ws://x")
    s.apply({"type": "table", "table": _table("playing"), "your_seat": 0})
    other = {"type": "event", "table_id": "elsewhere", "events": [{"seq": 0, "type": "x"}],
             "view": {"public": {"secret": 1}}}
    s.apply(other)
    assert s.events == [] and s.view is None and next_screen(s, other, "game") is None


def test_bots_are_read_from_every_welcome_shape():
    s = Session(name="ann", url="ws://x")
    for bots in ({"random": "uniform", "scripted:adaptive": "adapts"},
                 {"colonel-blotto": {"random": "uniform", "scripted:adaptive": "adapts"}},
                 [{"identity": "random", "description": "uniform"},
                  {"identity": "scripted:adaptive", "description": "adapts",
                   "envs": ["colonel-blotto"]},
                  {"identity": "scripted:tft", "description": "x", "envs": ["three-player-ipd"]}]):
        s.bots = bots
        assert s.bots_for("colonel-blotto") == {"random": "uniform",
                                                "scripted:adaptive": "adapts"}


def test_leaving_a_running_game_is_not_undone_by_the_servers_broadcasts():
    s = Session(name="ann", url="ws://x")
    s.apply({"type": "table", "table": _table("playing"), "your_seat": 0, "ref": 3})
    s.leave_table()  # the seat stays ours on the server (a disconnect), which says so to all
    broadcast = {"type": "table", "table": _table("playing"), "your_seat": 0}
    s.apply(broadcast)
    assert s.table is None and next_screen(s, broadcast, "lobby") is None
    turn = {"type": "your_turn", "table_id": "t9", "seat": 0, "turn": 5, "view": {},
            "legal": {"kind": "text"}, "text": "", "deadline": None}
    s.apply(turn)
    assert s.turn is None and next_screen(s, turn, "lobby") is None
    resumed = {"type": "table", "table": _table("playing"), "your_seat": 0, "ref": 9}
    s.apply(resumed)  # our own request (join, resume) takes us back
    assert s.table["id"] == "t9" and next_screen(s, resumed, "lobby").KIND == "game"


def test_an_event_without_a_view_keeps_the_view_and_text_the_session_has():
    """The server leaves the view out of an event whose seat gets its turn straight after."""
    s = Session(name="ann", url="ws://x")
    s.apply({"type": "table", "table": _table("playing"), "your_seat": 0})
    s.apply({"type": "event", "table_id": "t9", "seat": 0, "events": [{"seq": 0, "type": "a"}],
             "view": {"public": {"round": 1}, "private": {"mine": 1}}, "text": "round 1"})
    s.apply({"type": "event", "table_id": "t9", "seat": 0, "events": [{"seq": 1, "type": "b"}]})
    assert [e["seq"] for e in s.events] == [0, 1]
    assert s.public == {"round": 1} and s.private == {"mine": 1} and s.text == "round 1"
    s.apply({"type": "your_turn", "table_id": "t9", "seat": 0, "turn": 2,
             "view": {"public": {"round": 2}, "private": {}}, "legal": {"kind": "text"},
             "text": "round 2", "deadline": None})
    assert s.public == {"round": 2} and s.text == "round 2"


def test_how_many_watch_in_words():
    """Players read the count; a spectator, one of them, reads the others; none says nothing."""
    assert watching_text({"spectators": 0}) == ""
    assert watching_text({}) == ""
    assert watching_text({"spectators": 2}) == "2 watching"
    assert watching_text({"spectators": 1}, spectating=True) == ""
    assert watching_text({"spectators": 2}, spectating=True) == "with 1 other"
    assert watching_text({"spectators": 4}, spectating=True) == "with 3 others"
