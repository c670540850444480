"""The TUI on a host's public server (issue 10): wss:// with the host's own certificate
(`--cafile`), an invite code for a new name, being removed from a table by the host."""

from __future__ import annotations

import ssl

import pytest
import trustme
from textual.widgets import Input

from server.net.admin import kick
from server.net.app import Server
from server.net.limits import UNLIMITED
from server.store import accounts
from server.store.store import Store
from tests.tui.helpers import on_screen, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.tokens import token_file


@pytest.fixture
async def tls_server(tmp_path):
    """An invite-only server over TLS, with a certificate from a CA of the host's own."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    server = Server(str(tmp_path / "p.db"), limits=UNLIMITED, invite_only=True)
    await server.start("127.0.0.1", 0, context)
    server.ca_file = str(ca_file)
    yield server
    await server.stop()


def invite(server: Server) -> str:
    conn = Store._connect(server.db_path)
    try:
        return accounts.create_invites(conn, 1)[0]
    finally:
        conn.close()


async def test_a_newcomer_joins_over_wss_with_an_invite(tls_server):
    assert tls_server.url.startswith("wss://")
    untrusted = ParlorApp(tls_server.url, "ada", server_key="tls-test")
    async with untrusted.run_test() as pilot:
        await wait_for_text(pilot, "cannot trust")
        await wait_for_text(pilot, "--cafile")

    uninvited = ParlorApp(tls_server.url, "ada", server_key="tls-test",
                          cafile=tls_server.ca_file)
    async with uninvited.run_test() as pilot:
        await wait_for_text(pilot, "--invite CODE")
        assert uninvited.screen.KIND == "connect"

    code = invite(tls_server)
    app = ParlorApp(tls_server.url, "ada", server_key="tls-test", invite=code,
                    cafile=tls_server.ca_file)
    async with app.run_test() as pilot:
        await on_screen(pilot, app, "lobby")
    # Back later with the token the server gave: the spent code no longer matters.
    again = ParlorApp(tls_server.url, "ada", server_key="tls-test", invite=code,
                      cafile=tls_server.ca_file)
    async with again.run_test() as pilot:
        await on_screen(pilot, again, "lobby")


async def test_a_person_the_host_removes_is_told_and_back_in_the_lobby(tls_server):
    app = ParlorApp(tls_server.url, "bob", server_key="tls-test", invite=invite(tls_server),
                    cafile=tls_server.ca_file)
    async with app.run_test() as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="colonel-blotto", seats=["human", "human"],
                        join_seat=0)
        await on_screen(pilot, app, "table")
        table = next(iter(tls_server.tables.values()))
        await kick(tls_server, table, 0, "testing", None)
        await wait_for(pilot, lambda: any(n.message == "You were removed by the host: testing."
                                          for n in app._notifications), "the notice")
        await on_screen(pilot, app, "lobby")


async def test_the_tui_says_when_its_address_may_claim_a_new_name_again(tmp_path):
    """A hello refused by the host's cap on new names per address (issue 21) stays on the
    connect screen with the server's reason, like any refused hello."""
    from server.net.limits import Limits
    from tests.server.conftest import Client

    server = Server(str(tmp_path / "p.db"), limits=Limits(names_per_address_per_hour=1))
    await server.start("127.0.0.1", 0)
    try:
        first = await Client.connect(server.url, "first")
        app = ParlorApp(server.url, "second", server_key="names-cap-test")
        async with app.run_test(size=(240, 30)) as pilot:
            await wait_for_text(pilot, "claimed 1 new name(s) in the last hour")
            await wait_for_text(pilot, "try again in about 60 min")
            assert app.screen.KIND == "connect"
        await first.close()
    finally:
        await server.stop()


async def test_a_browser_tab_asks_for_the_invite_and_keeps_the_name(tls_server):
    """`parlor web` on an invite-only server: the tab's name screen asks for the code the
    server wants, says clearly why a code is refused, keeps the name typed, and never writes
    the code or the token down."""
    tab = ParlorApp(tls_server.url, None, cafile=tls_server.ca_file)
    async with tab.run_test() as pilot:
        await on_screen(pilot, tab, "name")
        await pilot.press(*"ada", "enter")
        await wait_for_text(pilot, "a new name needs an invite code from the host",
                            "Invite code from the host")
        assert tab.screen.KIND == "name"
        assert tab.screen.query_one("#name-input", Input).value == "ada"
        await pilot.press("enter")
        await wait_for_text(pilot, "Type the invite code the host gave you")
        await pilot.press(*"not-a-code", "enter")
        await wait_for_text(pilot, "this invite code is not one of this server's")
        assert tab.screen.query_one("#name-input", Input).value == "ada"
        await pilot.press(*invite(tls_server), "enter")  # typed over the wrong one
        await on_screen(pilot, tab, "lobby")
        await wait_for_text(pilot, "you are ada")
        assert tab.session.player["token"] and tab.invite is None
    assert not token_file().exists()
