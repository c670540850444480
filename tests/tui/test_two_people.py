"""Two people at one table (one drives this TUI with Pilot, the other speaks the protocol over a
real websocket), and a third who watches: coming back after quitting, the disconnect notice,
leaving as resigning, the spectator's screen, and one name per person (issue 9, findings 3, 6,
7 and 9)."""

from __future__ import annotations

from tests.server.conftest import Client
from tests.tui.helpers import (
    on_screen,
    our_turn,
    screen_text,
    showing,
    wait_for,
    wait_for_footer,
    wait_for_text,
)
from tui.app import ParlorApp
from tui.widgets.colonel_blotto.allocation_form import AllocationForm
from tui.widgets.game_header import GameHeader

SIZE = (140, 45)
BLOTTO = {"env": "colonel-blotto", "preset": "small", "seats": ["human", "human"], "seed": 3}
ENV_SEAT_NAMES = ("Commander", "Player 0", "Player 1", "human:")


async def _alice_waits(url: str) -> tuple[Client, str]:
    """Alice opens a two-person Blotto table and sits at seat 0."""
    alice = await Client.connect(url, "alice")
    reply = await alice.request("create_table", **BLOTTO, join_seat=0)
    return alice, reply["table"]["id"]


async def _bob_joins(pilot, app: ParlorApp, table_id: str) -> None:
    await on_screen(pilot, app, "lobby")
    await wait_for(pilot, lambda: any(t["id"] == table_id for t in app.session.tables),
                   "the table in the lobby")
    await pilot.press("tab", "j")  # to the live tables, join the highlighted (the only) one
    await our_turn(pilot, app)


async def _alice_moves(alice: Client, table_id: str) -> None:
    turn = await alice.wait_for("your_turn", table_id=table_id)
    await alice.send("act", table_id=table_id, turn=turn["turn"], action="[A10 B10 C0]")


async def _round_one(pilot, app: ParlorApp, alice: Client, table_id: str) -> None:
    """alice moves, then bob (the even split, by Enter); round 1 resolves."""
    await _alice_moves(alice, table_id)
    await pilot.press("enter")
    await wait_for(pilot, lambda: len(app.session.view["public"]["history"]) == 1,
                   "round 1 resolved")


def _seat(msg: dict, index: int) -> dict:
    return msg["table"]["seats"][index]


async def test_quitting_and_starting_again_brings_you_back_to_the_game(embedded):
    alice, table_id = await _alice_waits(embedded.url)
    app = ParlorApp(embedded.url, "bob", server_key="two-people")
    async with app.run_test(size=SIZE) as pilot:
        await _bob_joins(pilot, app, table_id)
        await _round_one(pilot, app, alice, table_id)
    # Bob quit mid-game: alice hears it, with the time he has to come back.
    gone = await alice.wait_for("table", table_id=None)
    while _seat(gone, 1)["return_by"] is None:
        gone = await alice.wait_for("table")
    assert _seat(gone, 1)["connected"] is False

    again = ParlorApp(embedded.url, "bob", server_key="two-people")
    async with again.run_test(size=SIZE) as pilot:
        await our_turn(pilot, again)
        await wait_for_text(pilot, "A10 B10 C0")  # the game's state: round 1 in the history
        assert again.screen.query_one(AllocationForm).active
        back = await alice.wait_for("table")
        while _seat(back, 1)["return_by"] is not None:
            back = await alice.wait_for("table")
        assert _seat(back, 1)["connected"] is True
    await alice.close()


async def test_everyone_at_the_table_sees_who_is_away_and_for_how_long(embedded):
    alice, table_id = await _alice_waits(embedded.url)
    app = ParlorApp(embedded.url, "bob", server_key="notice")
    async with app.run_test(size=SIZE) as pilot:
        await _bob_joins(pilot, app, table_id)
        token = alice.welcome["player"]["token"]
        await alice.close()  # alice's terminal is gone
        text = await wait_for_text(pilot, "alice disconnected")
        assert "s to return" in text
        alice = await Client.connect(embedded.url, "alice", token)
        await alice.request("resume", table_id=table_id)
        await wait_for(pilot, lambda: "alice disconnected" not in screen_text(app),
                       "the notice gone once alice is back")
    await alice.close()


async def test_leaving_asks_first_and_is_a_rated_loss(embedded):
    alice, table_id = await _alice_waits(embedded.url)
    app = ParlorApp(embedded.url, "bob", server_key="leave")
    async with app.run_test(size=SIZE) as pilot:
        await _bob_joins(pilot, app, table_id)
        await _round_one(pilot, app, alice, table_id)
        await pilot.press("ctrl+l")
        text = await wait_for_text(pilot, "Leave this game?")
        assert "resign" in text
        await pilot.press("escape")  # no: still playing
        await on_screen(pilot, app, "game")
        assert app.session.game_over is None
        await pilot.press("ctrl+l", "y")
        await on_screen(pilot, app, "result")
        over = app.session.game_over
        assert over["result"]["rewards"] == {"0": 1.0, "1": -1.0}
        assert not over["result"].get("void")
        assert over["rating_changes"]  # rated: leaving does not escape a loss
        text = screen_text(app)
        assert "bob" in text and "alice" in text
        for word in ENV_SEAT_NAMES:  # one name per person on the result screen
            assert word not in text, word
    ended = await alice.wait_for("game_over", table_id=table_id)
    assert ended["result"]["winners"] == [0]
    await alice.close()


async def test_a_spectator_watches_without_a_players_controls(embedded):
    alice, table_id = await _alice_waits(embedded.url)
    bob = await Client.connect(embedded.url, "bob")
    await bob.request("join", table_id=table_id)
    await _alice_moves(alice, table_id)
    turn = await bob.wait_for("your_turn", table_id=table_id)
    await bob.send("act", table_id=table_id, turn=turn["turn"], action="[A1 B1 C18]")
    await bob.wait_for("your_turn", table_id=table_id)

    app = ParlorApp(embedded.url, "carol", server_key="watch")
    async with app.run_test(size=SIZE) as pilot:
        await on_screen(pilot, app, "lobby")
        await wait_for(pilot, lambda: app.session.tables, "the table list")
        await pilot.press("tab", "w")
        await wait_for(pilot, lambda: showing(app, "game") and app.session.view,
                       "the game, watched")
        text = await wait_for_text(pilot, "A1 B1 C18")
        assert not app.screen.query_one(AllocationForm).display  # nothing to allocate
        assert "watching" in text
        keys = await wait_for_footer(pilot, app, "Stop watching")
        assert "Submit" not in keys and "Leave game" not in keys
        assert "You" not in text and "Opponent" not in text
        assert "alice" in text and "bob" in text
        for word in ENV_SEAT_NAMES:
            assert word not in text, word
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        await alice.request("list_tables")  # a table broadcast must not pull carol back
        await pilot.pause(0.3)
        assert app.screen.KIND == "lobby"
    await alice.close()
    await bob.close()


async def test_the_players_and_the_lobby_see_how_many_watch(embedded):
    """The lobby lists a table's watchers; a player's header counts them as they come and go
    ("2 watching", nothing for none); a watcher reads the others ("with 1 other")."""
    alice, table_id = await _alice_waits(embedded.url)
    carol = await Client.connect(embedded.url, "carol")
    dave = await Client.connect(embedded.url, "dave")
    await carol.request("spectate", table_id=table_id)

    def header(app: ParlorApp) -> str:  # its words, however the 80 columns wrap them
        return str(app.screen.query_one(GameHeader).render())

    async def header_says(pilot, app: ParlorApp, words: str) -> None:
        await wait_for(pilot, lambda: words in header(app), repr(words))

    app = ParlorApp(embedded.url, "bob", server_key="count")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        await wait_for(pilot, lambda: any(t["id"] == table_id and t["spectators"] == 1
                                          for t in app.session.tables), "carol in the count")
        await wait_for_text(pilot, "1 watching")  # the table's line in the lobby
        await pilot.press("tab", "j")
        await our_turn(pilot, app)
        await header_says(pilot, app, "1 watching")
        await dave.request("spectate", table_id=table_id)
        await header_says(pilot, app, "2 watching")
        await carol.request("leave", table_id=table_id)
        await header_says(pilot, app, "1 watching")
        await dave.close()
        await wait_for(pilot, lambda: "watching" not in header(app), "no watcher left")

    watcher = ParlorApp(embedded.url, "erin", server_key="count-watcher")
    await carol.request("spectate", table_id=table_id)
    async with watcher.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, watcher, "lobby")
        await wait_for(pilot, lambda: watcher.session.tables, "the table list")
        await pilot.press("tab", "w")
        await on_screen(pilot, watcher, "game")
        await header_says(pilot, watcher, "with 1 other")
        assert "2 watching" not in header(watcher)
    await alice.close()
    await carol.close()
