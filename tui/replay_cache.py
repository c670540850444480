"""What the replay screen knows of one replay: the server's `replay` replies, folded per
perspective (a seat, or None: omniscient). No Textual here, so it is easy to test.

Each reply carries the whole-game part (count, jumps, extras, names...) and one frame. Frames are
kept by position, so stepping back costs no request; a frame's `lines` and `events` are those new
at its step, and its `before` the server's last lines and events before it (whole frames back
from it, `from` the first): the transcript up to a frame is every earlier frame's where all are
here, else its `before` and its own.

Switching perspective keeps the moment (`carry_over`): a seat's frames carry no action index
(which actions a seat did not see is itself hidden), so the moment is the env's clock. The new
perspective's position is in the same round/phase (the same `jumps` segment: its n-th occurrence
of that clock), at the same share of the way through it; the first and last frames map to the
first and last."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from tui.session import Session

KEPT_FRAMES = 512  # per perspective, the most recently shown (a SocialGrid frame: ~40 KB)


@dataclass
class Perspective:
    head: dict[str, Any]  # the latest reply without its frame: count, jumps, extras, result...
    # position -> frame, the least recently kept or shown first
    frames: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)

    def keep(self, frame: dict[str, Any]) -> None:
        self.frames[frame["at"]] = frame
        self.frames.move_to_end(frame["at"])
        while len(self.frames) > KEPT_FRAMES:
            self.frames.popitem(last=False)

    @property
    def count(self) -> int:
        return int(self.head.get("count") or 0)

    @property
    def jumps(self) -> list[dict[str, Any]]:
        return list(self.head.get("jumps") or [])


@dataclass
class ReplayCache:
    game_id: int | None = None
    table_id: str | None = None
    perspectives: dict[int | None, Perspective] = field(default_factory=dict)

    def ours(self, msg: dict[str, Any]) -> bool:
        if self.game_id is not None and msg.get("game_id") == self.game_id:
            return True
        return self.table_id is not None and msg.get("table_id") == self.table_id

    def fold(self, msg: dict[str, Any]) -> None:
        """Keep a `replay` reply of this replay (others are ignored)."""
        if not self.ours(msg):
            return
        if self.game_id is None and isinstance(msg.get("game_id"), int) and not msg.get("live"):
            self.game_id = msg["game_id"]
        head = {k: v for k, v in msg.items() if k not in ("frame", "type", "ref", "v", "id")}
        seat = msg.get("seat")
        known = self.perspectives.get(seat)
        if known is None:
            known = self.perspectives[seat] = Perspective(head)
        known.head = head
        frame = msg.get("frame")
        if isinstance(frame, dict) and isinstance(frame.get("at"), int):
            known.keep(frame)

    def get(self, seat: int | None) -> Perspective | None:
        return self.perspectives.get(seat)

    def frame(self, seat: int | None, at: int) -> dict[str, Any] | None:
        known = self.perspectives.get(seat)
        found = known.frames.get(at) if known else None
        if found is not None:
            known.frames.move_to_end(at)  # type: ignore[union-attr]
        return found

    def transcript(self, seat: int | None, at: int
                   ) -> tuple[list[str], list[dict[str, Any]], bool]:
        """(lines, events, complete) up to position `at` (see the module); `complete`: they
        reach back to the setup."""
        known = self.perspectives.get(seat)
        frames = known.frames if known else {}
        if all(i in frames for i in range(at + 1)):
            upto = [frames[i] for i in range(at + 1)]
            return ([x for f in upto for x in f.get("lines") or []],
                    [e for f in upto for e in f.get("events") or []], True)
        frame = frames.get(at) or {}
        before = frame.get("before") or {}
        return (list(before.get("lines") or []) + list(frame.get("lines") or []),
                list(before.get("events") or []) + list(frame.get("events") or []),
                before.get("from") == 0)

    def lines(self, seat: int | None, at: int) -> list[str]:
        return self.transcript(seat, at)[0]

    def events(self, seat: int | None, at: int) -> list[dict[str, Any]]:
        return self.transcript(seat, at)[1]

    def session_at(self, seat: int | None, at: int, base: Session) -> Session:
        """A Session that shows frame `at` to an env widget exactly as the game screen's would
        (a seat's view, or the public view a spectator gets), with no turn: nothing to act on."""
        known = self.perspectives[seat]
        head, frame = known.head, known.frames[at]
        names, kinds = head.get("names") or [], head.get("kinds") or []
        table = {"id": head.get("table_id") or f"game {head.get('game_id')}",
                 "env": head.get("env"), "title": head.get("title"), "status": "over",
                 "seats": [{"seat": i, "display": n, "kind": kinds[i] if i < len(kinds) else ""}
                           for i, n in enumerate(names)]}
        s = Session(name=base.name, url=base.url, envs=base.envs, player=base.player)
        s.table = table
        s.seat = seat
        events = self.events(seat, at)
        if seat is None:
            seats = (frame.get("view") or {}).get("seats") or {}
            first = next(iter(seats.values()), {}) if isinstance(seats, dict) else {}
            s.view = {"env": head.get("env"), "seat": None, "public": first.get("public") or {},
                      "private": {}}
            events = [e for e in events if e.get("visible_to") == "all"]
        else:
            s.view = dict(frame.get("view") or {})
        s.events = events
        if events:
            s.first_seq, s.last_seq = events[0].get("seq", 0), events[-1].get("seq", 0)
        if at == known.count - 1 and head.get("result") and not head.get("live"):
            s.game_over = {"result": head["result"]}
        return s


def segment(jumps: list[dict[str, Any]], count: int, at: int) -> tuple[int, int, int]:
    """(index into `jumps` of the segment holding position `at`, its first position, its
    length)."""
    starts = [int(j.get("at", 0)) for j in jumps] or [0]
    k = max((i for i, s in enumerate(starts) if s <= at), default=0)
    end = starts[k + 1] if k + 1 < len(starts) else max(count, starts[k] + 1)
    return k, starts[k], max(end - starts[k], 1)


def carry_over(old: Perspective, at: int, new: Perspective) -> int:
    """The position in `new` at the same moment as position `at` of `old` (see the module)."""
    last = max(new.count - 1, 0)
    if at <= 0:
        return 0
    if at >= old.count - 1:
        return last
    k, start, length = segment(old.jumps, old.count, at)
    share = (at - start) / length
    if k < len(old.jumps):
        clock = old.jumps[k].get("clock")
        nth = sum(1 for j in old.jumps[:k] if j.get("clock") == clock)
        same = [i for i, j in enumerate(new.jumps) if j.get("clock") == clock]
        if nth < len(same):
            _, new_start, new_length = segment(new.jumps, new.count, int(new.jumps[same[nth]]["at"]))
            return min(new_start + int(share * new_length), last)
    return min(round(at / max(old.count - 1, 1) * last), last)
