"""The transcript on a real embedded server: the env's own lines (sent by the server) once each,
and the "Earlier events" key bringing back what a resumed player's window left out."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.tui.helpers import wait_for, wait_for_text
from tui.app import ParlorApp
from tui.widgets.transcript import EARLIER, Transcript

SIZE = (140, 50)


def _lines(app: ParlorApp) -> list[str]:
    """The transcript's screen lines (a long event line wraps onto several)."""
    return [strip.text.strip() for strip in app.screen.query_one(Transcript).lines]


def _flat(lines: list[str]) -> str:
    """Lines joined with single spaces: the same for wrapped lines as for the unwrapped text."""
    return " ".join(" ".join(lines).split())


async def _new_blotto_table(pilot: Pilot, app: ParlorApp, **config: int) -> str:
    await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
    app.client.send("create_table", env="colonel-blotto", preset="small", config=config,
                    seats=["human", "random"], join_seat=0, seed=11)
    await wait_for(pilot, lambda: app.screen.KIND == "game", "the game screen")
    return app.session.table["id"]


def _resolved(app: ParlorApp) -> int:
    return sum(e["type"] == "round_resolved" for e in app.session.events)


async def test_the_transcript_shows_each_server_line_once(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=SIZE) as pilot:
        await _new_blotto_table(pilot, app, win_rounds=5)  # all five rounds are played
        for played in (1, 2):
            await wait_for(pilot, lambda: app.session.awaiting_us, "our turn")
            await pilot.press("enter")  # the even split
            await wait_for(pilot, lambda p=played: _resolved(app) >= p, f"round {played}")
        await wait_for(pilot, lambda: app.session.awaiting_us, "round 3 open")
        for _ in range(3):  # renders with nothing new add nothing
            app.screen.render_session()
        await pilot.pause()
        texts = [e["text"] for e in app.session.events]
        assert all(texts) and _flat(_lines(app)) == _flat(texts)  # the server's lines, once each
        for r in (1, 2, 3):
            assert _lines(app).count(f"── Round {r} of 5 ──") == 1
        assert _lines(app).count("Commander Alpha has allocated") == 2
        assert "Round 1: Commander Alpha A7 B7 C6" in _flat(_lines(app))


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
        await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
        app.client.send("resume", table_id=table_id)
        await wait_for(pilot, lambda: app.screen.KIND == "game" and app.session.awaiting_us,
                       "the resumed game")
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
