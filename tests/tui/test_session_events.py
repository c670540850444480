"""The session folds each event once, keeps a bounded window, and pages earlier events in."""

from __future__ import annotations

from typing import Any

from tui.session import (
    CATCH_UP,
    HISTORY_PAGE,
    MAX_EVENTS,
    MAX_GAP,
    Session,
    events_after,
    events_before,
)

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


def _reconnect(s: Session) -> None:
    s.apply({"type": "welcome", "player": {"id": "human:ann", "name": "ann", "token": "tok"},
             "envs": [], "bots": {}})


def _shown(s: Session, cursor: int) -> list[int]:
    """The seqs a transcript with its cursor at `cursor` writes now (it stops at a gap)."""
    return [e["seq"] for e in events_after(s.events, cursor)
            if s.complete_below is None or e["seq"] < s.complete_below]


def test_a_reconnect_gap_is_fetched_page_by_page_into_place_each_seq_once():
    s = _session()
    s.apply(_events_msg(*range(50)))
    shown = _shown(s, -1)
    _reconnect(s)
    s.apply(_events_msg(*range(300, 400)))  # the catch-up: the latest 100 events only
    assert s.complete_below == 50 and _shown(s, shown[-1]) == []  # the rest waits for the gap
    assert s.gap_request() == {"table_id": "t1", "since": 50, "limit": HISTORY_PAGE}
    assert s.gap_request() is None  # one request at a time
    s.gap_sent(5)
    _history(s, 4, list(range(50, 60)), None)  # not ours: ignored
    assert s.complete_below == 50 and not s.for_gap({"ref": 4})
    _history(s, 5, list(range(50, 250)), 250)
    assert s.for_gap({"ref": 5}) and s.complete_below == 250
    shown += _shown(s, shown[-1])
    assert shown == list(range(250))
    s.apply(_events_msg(400))  # live events meanwhile: kept back, in order
    assert s.gap_request() == {"table_id": "t1", "since": 250, "limit": HISTORY_PAGE}
    s.gap_sent(6)
    # 261..299 were private to other seats; the page runs into what we have, and one new event.
    _history(s, 6, [*range(250, 261), *range(300, 310), 401], None)
    assert s.gaps == [] and s.complete_below is None and s.gap_request() is None
    shown += _shown(s, shown[-1])
    assert shown == [*range(261), *range(300, 402)]  # every seq we may see once, in order
    assert [e["seq"] for e in s.events] == shown and s.last_seq == 401 and s.first_seq == 0
    assert [e["seq"] for e in s.events if e.get(CATCH_UP)] == list(range(50, 261))
    assert s.ask_earlier() is None  # nothing before seq 0


def test_only_a_reconnect_looks_for_a_gap_and_a_reconnect_resends_the_page():
    s = _session()
    _reconnect(s)  # the first connection: no table events yet
    s.apply(_events_msg(0, 1, 5, 9))  # seqs skipped live are other seats' private events
    assert s.gaps == []
    _reconnect(s)
    s.apply(_events_msg(*range(7, 12)))  # overlaps what we have: nothing missed
    assert s.gaps == []
    _reconnect(s)
    s.apply(_events_msg(*range(200, 300)))
    assert s.gap_request()["since"] == 12
    s.gap_sent(1)
    _reconnect(s)  # dropped again before the reply: that request is lost, ask again
    s.apply(_events_msg(*range(250, 301)))  # the next catch-up, overlapping: no second gap
    assert len(s.gaps) == 1 and s.gap_request()["since"] == 12
    s.gap_sent(2)
    s.apply({"type": "error", "code": "internal", "message": "boom", "ref": 2})
    assert s.gaps == [] and s.complete_below is None  # refused: the transcript goes on


def test_a_huge_gap_fetches_its_last_part_and_ctrl_o_pages_back_over_the_rest():
    s = _session()
    s.apply(_events_msg(*range(100)))
    _reconnect(s)
    s.apply(_events_msg(*range(5_000, 5_100)))
    assert s.take_skip_notice() == (5_000 - MAX_GAP - 100, 5_000 - MAX_GAP)
    assert s.take_skip_notice() is None  # once
    assert s.complete_below == 5_000 - MAX_GAP and s.first_seq == 5_000 - MAX_GAP
    ref = 10
    while (request := s.gap_request()) is not None:
        ref += 1
        s.gap_sent(ref)
        since = request["since"]
        _history(s, ref, list(range(since, since + HISTORY_PAGE)), since + HISTORY_PAGE)
    assert s.complete_below is None
    assert [e["seq"] for e in s.events] == [*range(100), *range(4_000, 5_100)]
    # ctrl+o pages back from the fetched part and stops at what we already had.
    pages: list[list[int]] = []
    top = s.first_seq  # what a transcript's earlier blocks go before
    while (request := s.ask_earlier()) is not None:
        ref += 1
        s.history_sent(ref)
        since = request["since"]
        assert since >= 100 and request["limit"] == HISTORY_PAGE
        _history(s, ref, list(range(since, 4_000)), None)  # all from there on
        assert not s.for_gap({"ref": ref})
        pages.append([e["seq"] for e in events_before(s.earlier, top)])
        top = pages[-1][0]
    assert len(pages) == 20 and s.at_start  # 3,900 seqs, then the start: seq 0 is ours already
    assert sorted(q for page in pages for q in page) == list(range(100, 4_000))  # each once


def test_a_live_event_that_overtakes_the_catch_up_starts_the_gap():
    s = _session()
    s.apply(_events_msg(*range(50)))
    _reconnect(s)
    s.apply(_events_msg(400))  # a live event, sent before the server answered our resume
    s.apply(_events_msg(*range(301, 401)))  # the catch-up: all before 400 is in the gap now
    assert [e["seq"] for e in s.events] == [*range(50), 400]
    assert s.gap_request()["since"] == 50
    s.gap_sent(1)
    _history(s, 1, list(range(50, 250)), 250)
    assert s.gap_request()["since"] == 250
    s.gap_sent(2)
    _history(s, 2, list(range(250, 401)), None)
    assert [e["seq"] for e in s.events] == list(range(401)) and s.complete_below is None
