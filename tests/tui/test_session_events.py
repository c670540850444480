"""The session folds each event once, keeps a bounded window, and pages earlier events in."""

from __future__ import annotations

from typing import Any

from tui.session import HISTORY_PAGE, MAX_EVENTS, Session, events_after, events_before

TABLE = {"id": "t1", "env": "colonel-blotto", "status": "playing", "seats": []}


def _session() -> Session:
    s = Session(name="ann", url="ws://x")
    s.apply({"type": "table", "table": TABLE, "your_seat": 0})
    return s


def _event(seq: int) -> dict[str, Any]:
    return {"seq": seq, "step": seq, "clock": {"round": seq // 4}, "type": "tick", "data": {},
            "text": f"line {seq}"}


def _events_msg(*seqs: int) -> dict[str, Any]:
    return {"type": "event", "table_id": "t1", "seat": 0, "events": [_event(q) for q in seqs],
            "view": {"public": {"n": seqs[-1] if seqs else None}}, "text": ""}


def test_five_thousand_messages_keep_a_bounded_window_of_unique_events():
    s = _session()
    shown: list[int] = []  # what a renderer with its own cursor appends, message by message
    cursor = -1
    for seq in range(5_000):
        s.apply(_events_msg(seq))
        if seq % 7 == 0 and seq >= 3:  # the server repeats some, out of order
            s.apply(_events_msg(seq - 3, seq - 1, seq))
        new = events_after(s.events, cursor)
        shown.extend(e["seq"] for e in new)
        cursor = shown[-1] if shown else cursor
        assert len(s.events) <= MAX_EVENTS
    assert shown == list(range(5_000))  # every seq once, in order
    assert [e["seq"] for e in s.events] == list(range(5_000 - MAX_EVENTS, 5_000))
    assert s.last_seq == 4_999 and s.first_seq == 0


def test_a_message_mixing_repeats_and_new_events_keeps_only_the_new_ones():
    s = _session()
    s.apply(_events_msg(0, 1, 2))
    s.apply(_events_msg(1, 2, 3, 2, 4))
    assert [e["seq"] for e in s.events] == [0, 1, 2, 3, 4]
    s.apply({"type": "event", "table_id": "t1", "events": [{"seq": "x"}, {"type": "no seq"}]})
    assert len(s.events) == 5
    assert events_after(s.events, 2) == s.events[3:] and events_after(s.events, 4) == []


def _history(s: Session, ref: int, seqs: list[int], next_: int | None) -> None:
    s.apply({"type": "history", "table_id": "t1", "seat": 0, "ref": ref,
             "events": [_event(q) for q in seqs], "next": next_})


def test_earlier_pages_go_back_to_the_start_each_seq_once():
    s = _session()
    s.apply(_events_msg(*range(350, 450)))  # a resumed player: only the latest window
    request = s.ask_earlier()
    assert request == {"table_id": "t1", "since": 350 - HISTORY_PAGE, "limit": HISTORY_PAGE}
    assert s.ask_earlier() is None  # one fetch at a time
    s.history_sent(7)
    _history(s, 6, list(range(150, 160)), None)  # a reply to another request: not ours
    assert s.earlier == [] and s.fetching_earlier
    # The server cut the page short at 300: the session asks for the rest before showing it.
    _history(s, 7, list(range(150, 300)), 300)
    assert s.earlier == [] and s.history_request() == {"table_id": "t1", "since": 300,
                                                       "limit": HISTORY_PAGE}
    assert s.history_request() is None  # handed out once
    s.history_sent(8)
    _history(s, 8, list(range(300, 460)), None)  # runs into what we have, and one new event
    assert [e["seq"] for e in s.earlier] == list(range(150, 350))
    assert [e["seq"] for e in s.events] == list(range(350, 460)) and s.last_seq == 459
    assert s.first_seq == 150 and not s.fetching_earlier
    assert [e["seq"] for e in events_before(s.earlier, 350)] == list(range(150, 350))

    assert s.ask_earlier() == {"table_id": "t1", "since": 0, "limit": HISTORY_PAGE}
    s.history_sent(9)
    _history(s, 9, list(range(0, 200)), 200)  # `next` past what we asked for: page complete
    assert s.at_start and s.ask_earlier() is None
    assert [e["seq"] for e in events_before(s.earlier, 150)] == list(range(0, 150))
    assert sorted(e["seq"] for e in s.earlier) == list(range(0, 350))  # each seq once


def test_a_page_with_nothing_we_may_see_looks_further_back_and_errors_free_the_key():
    s = _session()
    s.apply(_events_msg(500, 501))
    s.ask_earlier()
    s.history_sent(1)
    _history(s, 1, [500, 501], None)  # seqs 300..499 are all private to other seats
    assert s.history_request() == {"table_id": "t1", "since": 100, "limit": HISTORY_PAGE}
    s.history_sent(2)
    s.apply({"type": "error", "code": "internal", "message": "boom", "ref": 2})
    assert not s.fetching_earlier and s.ask_earlier() is not None


def test_leaving_the_table_forgets_its_events():
    s = _session()
    s.apply(_events_msg(0, 1))
    s.leave_table()
    assert s.events == [] and s.last_seq == -1 and s.first_seq is None and s.earlier == []
