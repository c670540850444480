"""No message grows with a game's length, and none is large even at the envs' largest configs
(issue 10): every event, your_turn, catch-up and history message of whole games played on the
server's own table, with the longest answers the rules allow, measured as sent (UTF-8 JSON)."""

from __future__ import annotations

from typing import Any

import pytest

from server.tables import outbound
from server.wire.protocol import encode_bytes
from tui.client import MAX_INBOUND_BYTES

BOUND = 128 * 1024  # any message, when the players write plain text
WORST_BOUND = MAX_INBOUND_BYTES // 2  # any message, even with every character 4 bytes long
IPD_LARGEST = {"rounds": 50, "communication_turns": 3, "max_chat_chars": 500}
BLOTTO_LARGEST = {"fields": 9, "units": 200, "rounds": 100, "win_rounds": 100}


async def largest_messages(server, env: str, overrides: dict[str, Any], answer
                           ) -> dict[str, int]:
    """Play a whole game of people on the server's table (everyone answers with `answer`);
    the largest message of each kind any recipient would be sent, in bytes."""
    table = server.create_table(env, None, overrides, ["human"] * (3 if "ipd" in env else 2),
                                1, None)
    await table.start()
    game = table.game
    largest = dict.fromkeys(("event", "your_turn", "catch-up", "history"), 0)

    def note(kind: str, msg: dict[str, Any] | None) -> None:
        if msg is not None:
            largest[kind] = max(largest[kind], len(encode_bytes(msg)))

    recipients = [None, *range(game.players)]
    while not game.over:
        seat = min(game.pending())
        note("your_turn", outbound.turn_message(table, seat, 1, None))
        before = game.event_count
        await table.submit(table.seats[seat], answer(game, seat))
        events = game.events[before:]
        for r in recipients:
            note("event", outbound.events_message(table, r, events))
            if game.step % 40 == 0 or game.over:
                note("catch-up", outbound.catch_up_message(table, r))
                note("history", outbound.history_page(table, r, 0))
                note("history", outbound.history_page(table, r, max(game.event_count - 50, 0)))
    return largest


def chat(text: str):
    """An IPD player who writes `text` (past the length limit) and defects on everyone."""
    return lambda game, seat: text if game.legal(seat).kind == "text" else "[0 defect] " \
        "[1 defect] [2 defect]"


@pytest.mark.parametrize(("env", "overrides", "answer", "bound"), [
    ("colonel-blotto", BLOTTO_LARGEST, lambda game, seat: game.default_action(seat), BOUND),
    ("three-player-ipd", IPD_LARGEST, chat("Let us cooperate. " * 40), BOUND),
    ("three-player-ipd", IPD_LARGEST, chat("\U0001f91d" * 600), WORST_BOUND),
], ids=["blotto", "ipd-plain-text", "ipd-4-byte-text"])
async def test_every_message_at_the_largest_config_stays_under_a_fixed_bound(
        server, env, overrides, answer, bound):
    largest = await largest_messages(server, env, overrides, answer)
    assert all(size > 0 for size in largest.values()), largest
    assert max(largest.values()) < bound, largest


async def test_a_late_spectator_gets_a_bounded_catch_up_and_pages_back_from_it(server):
    table = server.create_table("three-player-ipd", None, IPD_LARGEST, ["human"] * 3, 2, None)
    await table.start()
    game = table.game
    while game.round < 20:
        seat = min(game.pending())
        await table.submit(table.seats[seat], chat("x" * 500)(game, seat))
    catch_up = outbound.catch_up_message(table, None)
    events = catch_up["events"]
    # The newest events, fewer than RECENT_EVENTS when their text runs long, ending now...
    assert 0 < len(events) < outbound.RECENT_EVENTS
    first = events[0]["seq"]
    assert events[-1]["seq"] == game.event_count - 1  # (a spectator sees every event here)
    # ... and `history`, page by page, reads everything before it in the same numbering.
    since, seen = 0, []
    while since is not None and since < first:
        page = outbound.history_page(table, None, since)
        seen += [e["seq"] for e in page["events"] if e["seq"] < first]
        since = page["next"]
    assert seen == list(range(first))


async def test_history_numbers_events_as_each_recipient_sees_them(server):
    """Seat 0 errs twice in each round: its invalid answers are events only it sees, so a
    spectator and seat 1 number every event they see one by one, from 0, and `history` from
    any of their numbers starts there."""
    table = server.create_table("colonel-blotto", "small", {}, ["human"] * 2, 3, None)
    await table.start()
    game = table.game
    while not game.over:
        seat = min(game.pending())
        if seat == 0 and game.errors_in_a_row(0) == 0:
            await table.submit(table.seats[0], "[A99]")  # retried: only seat 0 hears of it
        await table.submit(table.seats[seat], "[A8 B8 C4]" if seat == 0 else "[A9 B1 C10]")
    for r, hidden in ((None, True), (1, True), (0, False)):
        everything = outbound.history_page(table, r, 0)["events"]
        assert [e["seq"] for e in everything] == list(range(len(everything)))
        assert any(e["type"] == "invalid_move" for e in everything) is not hidden
        for since in range(len(everything) + 1):
            page = outbound.history_page(table, r, since)
            assert page["events"] == everything[since:]
    # Every action a spectator may know of is an allocation: it numbers them 0, 1, 2, ...
    steps = [e["step"] for e in outbound.history_page(table, None, 0)["events"]
             if e["type"] == "allocation_submitted"]
    assert steps == list(range(len(steps)))
