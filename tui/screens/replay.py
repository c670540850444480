"""A stored game watched again (protocol `replay`), from any seat or the omniscient view.

A seat's perspective shows the env's own widget fed that seat's view at the frame, exactly as the
game screen feeds it (but with no turn: nothing can be played), its private part and the lines it
saw; the omniscient one shows the public view as a spectator sees it, every seat's private part,
the hidden setup and every line. Frames come one request at a time and are kept
(tui/replay_cache.py): the frame on screen first, then the earlier ones its transcript needs, then
(while playing) the next. Switching perspective keeps the moment (`carry_over`). A live bot-only
table (`table_id`, `live` replies) is asked for its latest frame every second; the screen
follows that end until the viewer steps back (End follows again).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import OptionList, Static

from tui.replay_cache import ReplayCache, carry_over
from tui.screens.base import ParlorScreen, scroll_pages
from tui.screens.help import HELP_BINDING, open_help
from tui.widgets.env_widget import EnvWidget
from tui.widgets.key_footer import KeyFooter
from tui.widgets.private_panel import PrivatePanel
from tui.widgets.registry import replay_panel_for, widget_for
from tui.widgets.replay.decision_panel import DecisionPanel
from tui.widgets.replay.jump_list import JumpList
from tui.widgets.replay.replay_lines import ReplayLines
from tui.widgets.replay.seat_secrets import SeatSecrets
from tui.widgets.replay.step_line import StepLine

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # frames per second, + and - step through them
PAST_THE_END = 2**31 - 1  # a position the server answers with the last frame
LIVE_POLL = 1.0  # seconds between asks for a live table's latest frame while following it


# What a refusal means, where the server's own words (which event differs) do not say it.
REFUSED = {"replay_mismatch": "it does not match the stored game: "}


def refusal_text(error: dict[str, Any]) -> str:
    """A server's refusal of a replay as the screen says it ("Cannot show this replay: no
    game 7 on this server (unknown_game). Esc goes back.")."""
    code = error.get("code")
    return (f"Cannot show this replay: {REFUSED.get(code, '')}{error.get('message')} "
            f"({code}). Esc goes back.")


class ReplayScreen(ParlorScreen):
    KIND = "replay"
    AUTO_FOCUS = None  # the keys are the screen's: nothing to type in or scroll by focus
    TITLE_FOR_HELP = "Replay"
    BINDINGS = [
        Binding("right,l", "step(1)", "Next", key_display="→/l"),
        Binding("left,h", "step(-1)", "Back", key_display="←/h"),
        Binding("home", "ends(0)", "Start", show=False),
        Binding("end", "ends(1)", "End", show=False),
        Binding("right_square_bracket", "jump(1)", "Next jump", key_display="]"),
        Binding("left_square_bracket", "jump(-1)", "Previous jump", key_display="[",
                show=False),
        Binding("j", "pick_jump", "Jumps"),
        Binding("space", "play", "Play/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster", key_display="+"),
        Binding("minus", "speed(-1)", "Slower", key_display="-", show=False),
        Binding("p", "perspective", "Perspective"),
        Binding("d", "decision", "Decision"),
        Binding("pageup", "page(-1)", "Scroll decision", show=False),
        Binding("pagedown", "page(1)", "Scroll decision", show=False),
        Binding("escape", "back", "Back"),
        HELP_BINDING,
    ]

    def __init__(self, *, game_id: int | None = None, table_id: str | None = None,
                 seat: int | None = None) -> None:
        """Game `game_id`, or the game of table `table_id` (a live bot-only table's delayed
        omniscient view); from `seat`'s perspective (None: omniscient)."""
        super().__init__()
        self.cache = ReplayCache(game_id, table_id)
        self.seat = seat
        self.at = 0
        self.speed = 2.0
        self.playing: Timer | None = None
        self.following = table_id is not None  # a live table: keep to its latest frame
        self.asked: dict[int, tuple[int | None, int]] = {}  # request id -> (perspective, at)
        self.carrying: tuple[int | None, int] | None = None  # a switch waiting for its head
        self.error = ""
        self.env_id = ""
        self.env_ready = False  # its widget is mounted (see _mount_env)

    def compose(self) -> ComposeResult:
        yield StepLine(id="replay-step")
        yield Static(id="replay-status")
        with Horizontal(id="replay-body"):
            yield Vertical(id="replay-main")
            with Vertical(id="replay-side"):
                yield ReplayLines(id="replay-lines")
                yield PrivatePanel("Only this seat sees", id="replay-private")
                yield SeatSecrets(id="replay-secrets")
                yield DecisionPanel(id="replay-decision")
            yield JumpList(id="replay-jumps")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#replay-decision").border_title = "Decision"
        self.query_one("#replay-lines").border_title = "Transcript"
        self.query_one("#replay-secrets").border_title = "Secrets"
        self._close_picker()
        self.set_interval(LIVE_POLL, self._poll_live)
        self.fetch()
        self.render_frame()

    # -- requests -------------------------------------------------------------------------------
    def request(self, seat: int | None, at: int) -> None:
        if (seat, at) in self.asked.values():
            return
        body: dict[str, Any] = {"at": at}
        if self.cache.game_id is not None:
            body["game_id"] = self.cache.game_id
        else:
            body["table_id"] = self.cache.table_id
        if seat is not None:
            body["seat"] = seat
        self.asked[self.client.send("replay", **body)] = (seat, at)

    def fetch(self) -> None:
        """Ask for what is needed next, one request at a time: the frame on screen (it brings
        the transcript before it), then (while playing) the next one."""
        if self.asked or self.error:
            return
        seat, known = self.seat, self.cache.get(self.seat)
        if known is None or self.cache.frame(seat, self.at) is None:
            self.request(seat, self.at)
            return
        if self.playing and self.at + 1 < known.count and \
                self.cache.frame(seat, self.at + 1) is None:
            self.request(seat, self.at + 1)

    def server_update(self, msg: dict[str, Any]) -> None:
        asked = self.asked.pop(msg.get("ref"), None) if msg.get("ref") is not None else None
        if asked is None:
            return
        if msg["type"] == "error":
            self.error = refusal_text(msg)
            self.following = False
            self._stop()
            self.render_frame()
            return
        if msg["type"] != "replay":
            return
        self.cache.fold(msg)
        if not self.env_id:
            self.env_id = str(msg.get("env") or "")
            self.call_later(self._mount_env)
        seat = msg.get("seat")
        known = self.cache.get(seat)
        if seat == self.seat and known is not None:
            if self.carrying is not None:
                old, at = self.carrying
                self.carrying = None
                self.at = carry_over(self.cache.perspectives[old], at, known)
            if self.following and known.head.get("live"):
                self.at = max(known.count - 1, 0)
            self.at = min(self.at, max(known.count - 1, 0))
        self.render_frame()
        self.fetch()

    def _poll_live(self) -> None:
        """A live table grows: ask for its latest frame (kept; shown only while following)."""
        known = self.cache.get(self.seat)
        if known is not None and known.head.get("live") and not self.asked:
            self.request(self.seat, known.count)  # past the end: the latest frame

    # -- rendering ------------------------------------------------------------------------------
    async def _mount_env(self) -> None:
        """The env's widget (and replay panel), once the first reply has named the env."""
        main = self.query_one("#replay-main")
        widget = widget_for(self.session.env_info(self.env_id))(id="env-widget")
        # A picture of the game, not a form to fill: no key reaches it (SocialGrid's step keys
        # would take the arrows, and it focuses itself while its seat plays).
        widget.can_focus = widget.can_focus_children = False
        await main.mount(widget)
        panel = replay_panel_for(self.env_id)
        if panel is not None:
            await main.mount(panel(id="replay-panel"))
        self.env_ready = True
        self.render_frame()

    def render_frame(self) -> None:
        known = self.cache.get(self.seat)
        head = known.head if known else {}
        frame = self.cache.frame(self.seat, self.at)
        names = list(head.get("names") or [])
        status = self.query_one("#replay-status", Static)
        status.update(self.error)
        status.display = bool(self.error)
        self.query_one(StepLine).show(
            str(head.get("title") or head.get("env") or self.placeholder_title()),
            self.perspective_name(self.seat),
            self.at, known.count if known else 0, (frame or {}).get("clock"),
            self.playing is not None, self.speed, bool(head.get("live")),
            "" if frame or self.error else "loading…")
        self.set_class(self.seat is None, "-omniscient")
        if frame is None or not self.env_ready:
            return
        session = self.cache.session_at(self.seat, self.at, self.session)
        env = self.query_one(EnvWidget)
        env.show(session)
        self.query_one("#replay-private", PrivatePanel).display = (
            self.seat is not None and not env.SHOWS_PRIVATE)
        if self.seat is not None:
            self.query_one("#replay-private", PrivatePanel).show(session.private)
        else:
            view = frame.get("view") or {}
            setup = view.get("setup")
            drawn = env.reveal(setup, dict(enumerate(names))) if setup else None
            self.query_one(SeatSecrets).show(view, names, drawn)
        lines, _, complete = self.cache.transcript(self.seat, self.at)
        self.query_one(ReplayLines).show(lines, complete)
        self.query_one(DecisionPanel).show(frame.get("decision"), names)
        for panel in self.query("#replay-panel"):
            panel.show(head, frame)  # type: ignore[attr-defined]

    def placeholder_title(self) -> str:
        """What the step line names before (or without) the server's first reply."""
        game_id = self.cache.game_id
        return f"game {game_id}" if game_id is not None else "…"

    def perspective_name(self, seat: int | None) -> str:
        if seat is None:
            return "omniscient"
        names = (self.cache.get(seat) or self.cache.get(None) or next(
            iter(self.cache.perspectives.values()), None))
        listed = list((names.head if names else {}).get("names") or [])
        return f"seat {seat}: {listed[seat]}" if seat < len(listed) else f"seat {seat}"

    # -- moving ---------------------------------------------------------------------------------
    def go(self, at: int) -> None:
        """Show position `at` (before the first reply, as asked: the reply says where the end
        is, and `server_update` keeps within it)."""
        known = self.cache.get(self.seat)
        last = max(known.count - 1, 0) if known else at
        at = max(0, min(at, last))
        if known is not None and known.head.get("live"):
            self.following = at >= last
        self.at = at
        self.render_frame()
        self.fetch()

    def action_step(self, by: int) -> None:
        self._stop()
        self.go(self.at + by)

    def action_ends(self, end: int) -> None:
        known = self.cache.get(self.seat)
        self.go(0 if not end else known.count - 1 if known else PAST_THE_END)

    def action_jump(self, way: int) -> None:
        known = self.cache.get(self.seat)
        starts = [int(j["at"]) for j in (known.jumps if known else [])]
        if way > 0:
            target = next((s for s in starts if s > self.at), None)
        else:
            target = next((s for s in reversed(starts) if s < self.at), None)
        if target is not None:
            self.go(target)

    def action_pick_jump(self) -> None:
        known = self.cache.get(self.seat)
        picker = self.query_one(JumpList)
        if known is None or not known.jumps:
            return
        picker.show(known.jumps, self.at)
        picker.display = picker.can_focus = True
        picker.focus()

    @on(OptionList.OptionSelected, "#replay-jumps")
    def _jump_picked(self, event: OptionList.OptionSelected) -> None:
        self._close_picker()
        self.go(int(event.option.id or 0))

    def _close_picker(self) -> None:
        picker = self.query_one(JumpList)
        picker.display = picker.can_focus = False  # else it takes the keys while hidden
        self.set_focus(None)

    def action_play(self) -> None:
        if self.playing is not None:
            self._stop()
        else:
            self._start()
        self.render_frame()
        self.fetch()

    def _start(self) -> None:
        self.playing = self.set_interval(1 / self.speed, self._tick)

    def _stop(self) -> None:
        if self.playing is not None:
            self.playing.stop()
            self.playing = None

    def _tick(self) -> None:
        known = self.cache.get(self.seat)
        if known is None:
            return
        if self.at + 1 >= known.count:
            if not known.head.get("live"):
                self._stop()
                self.render_frame()
            return
        if self.cache.frame(self.seat, self.at + 1) is not None:
            self.at += 1
            self.render_frame()
        self.fetch()

    def action_speed(self, way: int) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 1
        self.speed = SPEEDS[max(0, min(i + way, len(SPEEDS) - 1))]
        if self.playing is not None:
            self._stop()
            self._start()
        self.render_frame()

    def action_perspective(self) -> None:
        known = self.cache.get(self.seat)
        if known is None:
            return
        players = int(known.head.get("players") or len(known.head.get("names") or []))
        if known.head.get("live"):
            self.notify("A live table is watched from the omniscient view only.")
            return
        order: list[int | None] = [None, *range(players)]
        seat = order[(order.index(self.seat) + 1) % len(order)]
        new = self.cache.get(seat)
        if new is not None:
            self.at = carry_over(known, self.at, new)
        else:
            self.carrying = (self.seat, self.at)
        self.seat = seat
        self.error = ""
        self.render_frame()
        self.fetch()

    def action_decision(self) -> None:
        self.toggle_class("-decision-toggled")

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one(DecisionPanel), pages)

    def action_back(self) -> None:
        if self.query_one(JumpList).display:
            self._close_picker()
            return
        self._stop()
        self.app.pop_screen()

    def action_help(self) -> None:
        open_help(self, self.env_id or None)
