"""The Parlor app: wires the client, the session model and the screens. Nothing else lives here."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import App
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from tui.client import ParlorClient
from tui.router import next_screen
from tui.screens.base import ParlorScreen
from tui.screens.connect import ConnectScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.name import NameScreen
from tui.screens.replay import ReplayScreen
from tui.session import Session
from tui.tokens import load_token, save_token


class ParlorApp(App[int]):
    TITLE = "Parlor"
    ENABLE_COMMAND_PALETTE = False  # every action has its own key, listed in the footer
    CSS_PATH = Path(__file__).with_name("parlor.tcss")
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, url: str, name: str | None, server_key: str | None = None, *,
                 invite: str | None = None, cafile: str | None = None,
                 database: str | None = None,
                 replay: tuple[int, int | None] | None = None) -> None:
        """`name` None: ask for it on screen (a browser tab of `parlor web`). Such a name may
        be typed by anyone at a shared page, so its token is kept for this session only: never
        read from nor written to this machine's token file, where it would hand one
        participant's name to the next who types it. `replay`: (game id, seat or None for
        omniscient) to open over the lobby once connected (`parlor replay GAME_ID --watch`:
        Esc from it is the lobby)."""
        super().__init__()
        self.database = database  # the embedded server's file, shown in the lobby
        self.ask_name = name is None
        self.session = Session(name=name or "", url=url)
        self.client = ParlorClient(self, url, cafile=cafile)
        self.server_key = server_key or url  # where our token for this server is kept
        self.invite = invite  # spent by the server on our name's first hello only
        self.opening_replay = replay  # shown once, over the first lobby

    def on_mount(self) -> None:
        if self.ask_name:
            self.push_screen(NameScreen())
        else:
            self.push_screen(ConnectScreen())
            self.connect()

    def join_as(self, name: str, invite: str | None = None) -> None:
        """Connect under the `name` just asked for (with the `invite` asked for with it, on an
        invite-only server)."""
        self.session.name = name
        self.invite = invite
        self.show(ConnectScreen())
        self.connect()

    def connect(self) -> None:
        hello = {"name": self.session.name}
        token = (self.session.player or {}).get("token") or (
            None if self.ask_name else load_token(self.server_key, self.session.name))
        if token:
            hello["token"] = token  # reclaim our identity and seats after a drop
        if self.invite:
            hello["invite"] = self.invite
        self.client.connect(hello)

    def show(self, screen: ParlorScreen) -> None:
        """Replace whatever is shown (and anything pushed over it) with `screen`."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    def to_lobby(self) -> None:
        self.session.leave_table()
        self.show(LobbyScreen())

    @property
    def base_screen(self) -> Screen[object]:
        """The screen shown under any dialog (a confirm, the help): server messages go to it
        and lead from it, so a game's steps neither close the dialog nor pass it by."""
        for screen in reversed(self.screen_stack):
            if not isinstance(screen, ModalScreen):
                return screen
        return self.screen

    @property
    def current_kind(self) -> str:
        return getattr(self.base_screen, "KIND", "")

    @on(ParlorClient.Disconnected)
    def _disconnected(self, event: ParlorClient.Disconnected) -> None:
        if not self.screen_stack:
            return
        if isinstance(self.screen, ConnectScreen):
            self.screen.failed(event.reason)
        else:
            self.show(ConnectScreen(event.reason))

    @on(ParlorClient.Received)
    def _received(self, event: ParlorClient.Received) -> None:
        if not self.screen_stack:  # shutting down: nothing left to show it on
            return
        msg = event.msg
        following = (self.session.table or {}).get("id")
        self.session.apply(msg)
        if _seated_elsewhere(msg, following):
            # The server says we hold a seat in a game under way (we came back after quitting):
            # ask for the game itself, so we land in it with its state, not an empty screen.
            self.client.send("resume", table_id=msg["table"]["id"])
        if msg["type"] == "welcome":
            self.invite = None  # spent, or not needed: the token answers for the name now
            if not self.ask_name:
                save_token(self.server_key, msg["player"]["name"], msg["player"]["token"])
        if msg["type"] == "error" and msg.get("ref") == self.client.hello_id:
            self.client.close()
            code = msg.get("code")
            if self.ask_name and code in _NAME_REFUSED + _INVITE_REFUSED:
                # pick another name, or give (another) invite code, the name kept
                self.show(NameScreen(msg.get("message"), ask_invite=code in _INVITE_REFUSED
                                     or self.invite is not None))
                return
            if isinstance(self.screen, ConnectScreen):
                advice = _HELLO_REFUSED.get(msg.get("code"), "start again later")
                self.screen.failed(f"{msg.get('message')} — {advice}")
            return
        if msg["type"] == "error":
            self.notify(msg.get("message", ""), title=msg.get("code"), severity="error")
            if self.current_kind == "connect":  # e.g. `resume` refused after a reconnect
                self.to_lobby()
                return
        if msg["type"] == "welcome" and self.session.table and not self.session.game_over:
            self.client.send("resume", table_id=self.session.table["id"])
        target = next_screen(self.session, msg, self.current_kind)
        if target is not None:
            self.show(target())
            if target is LobbyScreen and self.opening_replay is not None:
                game_id, seat = self.opening_replay
                self.opening_replay = None
                self.push_screen(ReplayScreen(game_id=game_id, seat=seat))
        elif isinstance(self.base_screen, ParlorScreen):
            self.base_screen.post_message(ParlorScreen.Update(msg))

    async def action_quit(self) -> None:
        await self.client.aclose()
        self.exit(0)

    def on_unmount(self) -> None:
        self.client.close()


_NAME_REFUSED = ("name_taken", "bad_name")  # a hello refused for its name alone
_INVITE_REFUSED = ("invite_required", "bad_invite")  # a new name without a good invite
# A refused hello: what to do about it.
_HELLO_REFUSED = {"name_taken": "start again with --name NAME",
                  "bad_name": "start again with --name NAME",
                  "invite_required": "start again with --invite CODE",
                  "bad_invite": "start again with another --invite CODE",
                  # too many new names from this address this hour (the message says when)
                  "limit": "start again then, or with a --name NAME you have"}


def _seated_elsewhere(msg: dict, following: str | None) -> bool:
    """An unasked `table` message giving us a seat at a running table we were not following."""
    return (msg["type"] == "table" and msg.get("ref") is None
            and msg.get("your_seat") is not None and msg["table"]["id"] != following
            and msg["table"].get("status") in ("starting", "playing"))
