"""Codenames in the TUI against the embedded server's bots, with keys only: an operative's turn
(type to find a word, Enter guesses, ctrl+p passes) at 80x24, and a spymaster's clue with the
live legality check (an illegal clue is refused before it is sent) at 120x40."""

from __future__ import annotations

import pytest

from tests.tui.helpers import (
    on_screen,
    our_turn,
    our_turn_or_end,
    wait_for,
    wait_for_footer,
    wait_for_text,
)
from tui.app import ParlorApp

BOTS = ["scripted:spymaster", "scripted:agent", "scripted:agent", "scripted:agent"]


def _unique_prefix(word: str, others: list[str]) -> str:
    for n in range(1, len(word) + 1):
        if not any(o != word and o.startswith(word[:n]) for o in others):
            return word[:n]
    return word


async def _seated(pilot, app, seat: int, seed: int) -> None:
    await on_screen(pilot, app, "lobby")
    seats = [*BOTS]
    seats[seat] = "human"
    app.client.send("create_table", env="codenames", seats=seats, join_seat=seat, seed=seed)
    await our_turn(pilot, app)


async def test_an_operative_guesses_by_typing_then_passes(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await _seated(pilot, app, 1, seed=6)
        assert app.session.legal["kind"] == "choice"
        public = app.session.view["public"]
        assert public["clue"] is not None and public["to_act"] == 1
        hidden = [o["id"] for o in app.session.legal["options"] if o["id"] != "pass"]
        target = hidden[-1]  # the marker starts on the first hidden word, not this one
        prefix = _unique_prefix(target, hidden)
        await pilot.press(*prefix)
        await wait_for_text(pilot, f"typed: {prefix}")
        assert "Guess" in await wait_for_footer(pilot, app, "^p Pass")
        await pilot.press("enter")
        index = public["words"].index(target)
        await wait_for(pilot, lambda: (app.session.view or {}).get("public", {})
                       .get("revealed", [None] * 25)[index] is not None, "the guess applied")
        label = app.session.view["public"]["revealed"][index]
        await wait_for_text(pilot, f"{target}{'✓' if label == 'red' else '✗'}")  # history
        assert label != "red"  # seed 6: the last hidden word is neutral, so the turn ended
        # Our next decision (a further guess, or the next red turn's first): ctrl+p passes.
        if await our_turn_or_end(pilot, app) is not None:
            red_turn = app.session.view["public"]["turn"]
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: any(
                h["turn"] == red_turn and h["ended"] == "pass"
                for h in app.session.view["public"]["history"]), "the pass applied")
        first = next(h for h in app.session.view["public"]["history"] if h["turn"] == 1)
        assert first["guesses"][0]["word"] == target


async def test_a_spymaster_is_kept_from_an_illegal_clue(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await _seated(pilot, app, 0, seed=4)
        assert app.session.legal["kind"] == "form"
        words = app.session.view["public"]["words"]
        await wait_for_text(pilot, "small letters are the key")
        bad = words[0]
        await pilot.press(*bad)
        await wait_for_text(pilot, "Illegal")
        await pilot.press("space", "2", "enter")
        await wait_for_text(pilot, "Not sent")
        assert app.session.awaiting_us and app.session.view["public"]["clue"] is None
        await pilot.press(*["backspace"] * (len(bad) + 2), *"signal 1")
        await wait_for_text(pilot, "[signal 1] is legal")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(e.get("type") == "clue_given"
                                          for e in app.session.events), "the clue sent")
        clue = next(e for e in app.session.events if e.get("type") == "clue_given")["data"]
        assert (clue["word"], clue["number"], clue["seat"]) == ("signal", 1, 0)
        await wait_for_text(pilot, "[signal 1]")


@pytest.mark.parametrize(("size", "seed", "clue", "meant"), [
    ((80, 24), 14, "bunny", "rabbit"), ((140, 45), 89, "insect", "firefly"),
    ((140, 45), 33, "painting", "canvas")], ids=["bunny-80x24", "insect-140x45", "painting"])
async def test_the_bot_operative_finds_a_persons_one_word_clue(embedded, size, seed, clue, meant):
    """Issue 22: the scripted operative passed on `insect 1`, `bunny 1`, `painting 1`."""
    app = ParlorApp(embedded.url, f"spy{seed}")
    async with app.run_test(size=size) as pilot:
        await _seated(pilot, app, 0, seed=seed)
        words = app.session.view["public"]["words"]
        assert meant in words and app.session.view["private"]["key"][words.index(meant)] == "red"
        await pilot.press(*f"{clue} 1")
        await wait_for_text(pilot, f"[{clue} 1] is legal")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(e.get("type") == "guess_made" for e in app.session.events),
                       "the operative's guess")
        guess = next(e for e in app.session.events if e.get("type") == "guess_made")["data"]
        assert guess["word"] == meant and guess["seat"] == 1
        await wait_for_text(pilot, meant)
