"""The transcript on a real embedded server: the env's own lines (sent by the server) once each,
the "Earlier events" key bringing back what a resumed player's window left out, and the events
missed while disconnected fetched into place on reconnecting."""

from __future__ import annotations

import itertools
from typing import Any

from textual.pilot import Pilot
from websockets.asyncio.client import connect

from server.wire.protocol import decode_server_message, encode, request
from tests.tui.helpers import on_screen, our_turn, showing, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.session import CATCH_UP, HISTORY_PAGE, MAX_GAP
from tui.widgets.transcript import CAUGHT_UP, EARLIER, Transcript

SIZE = (140, 50)


def _lines(app: ParlorApp) -> list[str]:
    """The transcript's screen lines (a long event line wraps onto several)."""
    return [strip.text.strip() for strip in app.screen.query_one(Transcript).lines]


def _flat(lines: list[str]) -> str:
    """Lines joined with single spaces: the same for wrapped lines as for the unwrapped text."""
    return " ".join(" ".join(lines).split())


async def _new_blotto_table(pilot: Pilot, app: ParlorApp, **config: int) -> str:
    await on_screen(pilot, app, "lobby")
    app.client.send("create_table", env="colonel-blotto", preset="small", config=config,
                    seats=["human", "random"], join_seat=0, seed=11)
    await on_screen(pilot, app, "game")
    return app.session.table["id"]


def _resolved(app: ParlorApp) -> int:
    return sum(e["type"] == "round_resolved" for e in app.session.events)


async def test_the_transcript_shows_each_server_line_once(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=SIZE) as pilot:
        await _new_blotto_table(pilot, app, win_rounds=5)  # all five rounds are played
        for played in (1, 2):
            await our_turn(pilot, app)
            await pilot.press("enter")  # the even split
            await wait_for(pilot, lambda p=played: _resolved(app) >= p, f"round {played}")
        await our_turn(pilot, app)  # round 3 open
        for _ in range(3):  # renders with nothing new add nothing
            app.screen.render_session()
        await pilot.pause()
        texts = [e["text"] for e in app.session.events]
        assert all(texts) and _flat(_lines(app)) == _flat(texts)  # the server's lines, once each
        for r in (1, 2, 3):
            assert _lines(app).count(f"── Round {r} of 5 ──") == 1
        assert _lines(app).count("tester has allocated") == 2
        assert "Round 1: tester A7 B7 C6" in _flat(_lines(app))


async def test_earlier_events_key_after_a_resume(embedded):
    first = ParlorApp(embedded.url, "ann", server_key="resume-test")
    async with first.run_test(size=SIZE) as pilot:
        table_id = await _new_blotto_table(pilot, first, rounds=40, win_rounds=40)
        s = first.session
        while s.last_seq < 130:  # well past the 100 events a resume brings back
            await wait_for(pilot, lambda: s.awaiting_us, "our turn")
            first.client.send("act", table_id=table_id, turn=s.turn["turn"],
                              action="[A7 B7 C6]")
            s.answered()
        await wait_for(pilot, lambda: s.awaiting_us, "our turn")
        played = _resolved(first)
    # A fresh TUI (same player, by its saved token) resumes: it gets only the recent window.
    app = ParlorApp(embedded.url, "ann", server_key="resume-test")
    async with app.run_test(size=SIZE) as pilot:
        # Back on the server, the TUI finds our seat and resumes the game by itself.
        await our_turn(pilot, app)
        s = app.session
        await wait_for(pilot, lambda: s.events and _flat(_lines(app)) == _flat(
            [e["text"] for e in s.events]), "the recent lines")
        assert 0 < s.first_seq and len(s.events) == 100
        assert "── Round 1 of 40 ──" not in _lines(app)
        await wait_for_text(pilot, "Earlier events")  # the key, in the footer

        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: f"{EARLIER}── Round 1 of 40 ──" in _lines(app),
                       "the earlier lines")
        assert s.at_start
        lines = _lines(app)
        earlier = sorted(s.earlier, key=lambda e: e["seq"])
        recent = [e["text"] for e in s.events]
        block = lines.index(next(line for line in lines if "earlier events" in line))
        assert _flat(lines[:block]) == _flat(recent)  # the window, untouched
        assert _flat(lines[block + 1:-1]) == _flat([EARLIER + e["text"] for e in earlier])
        for r in range(1, played + 2):  # every round's opening line exactly once
            assert sum(line.endswith(f"── Round {r} of 40 ──") for line in lines) == 1
        seqs = [e["seq"] for e in earlier] + [e["seq"] for e in s.events]
        assert seqs == list(range(s.last_seq + 1))  # every event of the game, once

        await pilot.press("ctrl+o")  # nothing before the start
        await wait_for(pilot, lambda: "start of the game" in _lines(app)[-1], "the notice")


async def _play_elsewhere(url: str, token: str, table_id: str, until_seq: int) -> int:
    """The same player on another connection (a second terminal, say) resumes the table and
    plays our seat until the game's seq passes `until_seq`; returns the latest seq it saw."""
    ids = itertools.count(1_000)

    async def send(ws: Any, type: str, **body: Any) -> None:
        await ws.send(encode(request(type, next(ids), **body)))

    async with connect(url) as ws:
        await send(ws, "hello", name="ann", token=token)
        await send(ws, "resume", table_id=table_id)
        last = -1
        while True:
            msg = decode_server_message(await ws.recv())
            if msg["type"] == "event" and msg["events"]:
                last = max(last, msg["events"][-1]["seq"])
            elif msg["type"] == "your_turn":
                if last > until_seq:
                    return last
                await send(ws, "act", table_id=table_id, turn=msg["turn"], action="[A7 B7 C6]")


def _gap_end(app: ParlorApp, before: int) -> int:
    """The first seq after `before` that came with the catch-up rather than the gap's fetch (the
    resume's first event, or a live one that overtook it: the gap then runs up to that)."""
    return next(e["seq"] for e in app.session.events
                if e["seq"] > before and not e.get(CATCH_UP))


async def _play_then_drop(pilot: Pilot, app: ParlorApp, rounds: int) -> tuple[str, int]:
    """A Blotto table where we play three rounds, then the link drops: (table id, last seq)."""
    table_id = await _new_blotto_table(pilot, app, rounds=rounds, win_rounds=rounds)
    s = app.session
    for played in (1, 2, 3):
        await our_turn(pilot, app)
        await pilot.press("enter")
        await wait_for(pilot, lambda p=played: _resolved(app) >= p, f"round {played}")
    await wait_for(pilot, lambda: s.awaiting_us, "our turn")
    app.client._ws.transport.abort()  # the link drops
    await on_screen(pilot, app, "connect")
    return table_id, s.last_seq


async def test_events_missed_while_disconnected_are_fetched_into_place(embedded):
    app = ParlorApp(embedded.url, "ann", server_key="gap-test")
    async with app.run_test(size=SIZE) as pilot:
        s = app.session
        table_id, before = await _play_then_drop(pilot, app, rounds=150)
        # While we are away the game goes on (our seat played elsewhere) for over 100 events,
        # the most a resume brings back: more than a page of history is missed.
        last = await _play_elsewhere(embedded.url, s.player["token"], table_id,
                                     before + 100 + HISTORY_PAGE + 50)
        await pilot.press("r")  # reconnect: hello with our token, then resume
        await wait_for(pilot, lambda: showing(app, "game") and s.last_seq >= last
                       and not s.gaps and app.screen.query_one(Transcript).last_seq
                       == s.last_seq, "the missed events fetched")
        resumed = _gap_end(app, before)
        assert resumed >= last - 99  # at most the 100 events a resume brings back
        fetched = [e["seq"] for e in s.events if e.get(CATCH_UP)]
        assert fetched == list(range(before + 1, resumed))  # all that the resume left out
        assert len(fetched) > HISTORY_PAGE  # more than one page
        await our_turn(pilot, app)  # after the reconnect
        played = _resolved(app)
        await pilot.press("enter")  # the game goes on below the lines caught up
        await wait_for(pilot, lambda: _resolved(app) > played, "the next round")
        await wait_for(pilot, lambda: app.screen.query_one(Transcript).last_seq == s.last_seq,
                       "the new lines")
        assert [e["seq"] for e in s.events] == list(range(s.last_seq + 1))  # each seq once
        expected = [e["text"] for e in s.events if e["seq"] <= before]
        expected.append("┄┄ missed while disconnected, fetched on reconnecting ┄┄")
        expected += [CAUGHT_UP + e["text"] for e in s.events if e.get(CATCH_UP)]
        expected.append("┄┄ caught up ┄┄")
        expected += [e["text"] for e in s.events if e["seq"] >= resumed]
        assert _flat(_lines(app)) == _flat(expected)  # in order, each once, marked


async def test_a_huge_gap_shows_its_latest_part_and_ctrl_o_pages_back_to_the_rest(embedded):
    app = ParlorApp(embedded.url, "ann", server_key="huge-gap-test")
    async with app.run_test(size=SIZE) as pilot:
        s = app.session
        table_id, before = await _play_then_drop(pilot, app, rounds=400)
        last = await _play_elsewhere(embedded.url, s.player["token"], table_id,
                                     before + 100 + MAX_GAP + 20)  # < a page left out
        await pilot.press("r")
        await wait_for(pilot, lambda: showing(app, "game") and s.last_seq >= last
                       and not s.gaps and app.screen.query_one(Transcript).last_seq
                       == s.last_seq, "the latest part of the gap fetched")
        resumed = _gap_end(app, before)
        assert resumed >= last - 99
        fetched = [e["seq"] for e in s.events if e.get(CATCH_UP)]
        assert fetched == list(range(resumed - MAX_GAP, resumed))  # only its latest part
        left_out = resumed - MAX_GAP - (before + 1)
        assert 0 < left_out < HISTORY_PAGE  # one ctrl+o page brings them all
        lines = _lines(app)
        note = f"· up to {left_out:,} earlier events not shown; ctrl+o pages back"
        assert note in lines
        assert _flat(lines[:lines.index(note)]) == _flat(
            [e["text"] for e in s.events if e["seq"] <= before])

        await pilot.press("ctrl+o")  # the events left out, as an earlier block
        await wait_for(pilot, lambda: any("earlier events" in line for line in _lines(app)),
                       "the earlier block")
        assert s.at_start  # what comes before them we had all along
        block = sorted(s.earlier, key=lambda e: e["seq"])
        assert [e["seq"] for e in block] == list(range(before + 1, resumed - MAX_GAP))
        seqs = sorted([e["seq"] for e in block] + [e["seq"] for e in s.events])
        assert seqs == list(range(s.last_seq + 1))  # every seq once
        lines = _lines(app)
        top = lines.index(next(line for line in lines if "earlier events (before" in line))
        assert _flat(lines[top + 1:-1]) == _flat([EARLIER + e["text"] for e in block])
        rounds = sum(e["type"] == "round_resolved" for e in [*block, *s.events])
        for r in range(1, rounds + 2):  # and every round's opening line on screen once
            assert sum(line.endswith(f"── Round {r} of 400 ──") for line in lines) == 1
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: "start of the game" in _lines(app)[-1], "the notice")
