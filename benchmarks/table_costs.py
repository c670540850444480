"""What one table costs at the envs' largest configs (issue 10): how long `scripted:adaptive`
thinks per Blotto decision, how large the server's messages get, and what moving a scripted
decision to a worker thread costs. Prints figures; nothing is asserted.

    python benchmarks/table_costs.py [--games 6]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.registry import make_bot  # noqa: E402
from engine.core import Game  # noqa: E402
from engine.registry import get  # noqa: E402
from server import outbound  # noqa: E402
from server.tables.table import _finish_coroutine  # noqa: E402
from server.wire.protocol import encode_bytes  # noqa: E402

BLOTTO = get("colonel-blotto")
IPD = get("three-player-ipd")
BLOTTO_CONFIGS = {"paper": {}, "extreme": {"fields": 7, "units": 75, "rounds": 25},
                  "largest": {"fields": 9, "units": 200, "rounds": 100, "win_rounds": 100}}
IPD_LARGEST = {"rounds": 50, "communication_turns": 3, "max_chat_chars": 500}


class Watched:
    """What server/tables/outbound.py reads of a table: the env, the game, the seat names."""

    def __init__(self, env: Any, game: Game) -> None:
        self.id, self.env, self.game = "t1", env, game
        self.numbering = outbound.Numbering(game)

    def namer(self):
        return self.env.seat_name


def adaptive_decisions(games: int) -> None:
    print("scripted:adaptive, one Blotto decision (view, legal, decide), ms")
    print(f"{'config':<10} {'decisions':>9} {'mean':>7} {'p99':>7} {'worst':>7}")
    for name, overrides in BLOTTO_CONFIGS.items():
        config = BLOTTO.config(None, overrides)
        times: list[float] = []
        for seed in range(games):
            game = BLOTTO.new_game(config, seed, 2)
            bots = [make_bot("scripted:adaptive", BLOTTO.id, seed * 2 + s) for s in range(2)]
            while not game.over:
                for seat in sorted(game.pending()):
                    started = time.perf_counter()
                    view, legal = game.view(seat), game.legal(seat).to_json()
                    decision = _finish_coroutine(bots[seat].decide(view, legal, {}))
                    times.append((time.perf_counter() - started) * 1000)
                    game.act(seat, decision.action)
        times.sort()
        print(f"{name:<10} {len(times):>9} {statistics.mean(times):>7.2f} "
              f"{times[int(len(times) * 0.99)]:>7.2f} {times[-1]:>7.2f}")


def ipd_decisions(games: int) -> None:
    """The IPD's scripted bots at the largest config, every chat message at the length limit
    (they read the chat for threats)."""
    config = IPD.config(None, IPD_LARGEST)
    chat = "I will defect on everyone unless you all cooperate with me. " * 10
    print(f"\n{'IPD bot, largest config':<26} {'decisions':>9} {'mean ms':>8} {'worst ms':>9}")
    for spec in ("scripted:tit-for-tat", "scripted:grim", "scripted:always-defect"):
        times: list[float] = []
        for seed in range(games):
            game = IPD.new_game(config, seed, 3)
            bots = [make_bot(spec, IPD.id, seed * 3 + s) for s in range(3)]
            while not game.over:
                seat = min(game.pending())
                started = time.perf_counter()
                view, legal = game.view(seat), game.legal(seat).to_json()
                decision = _finish_coroutine(bots[seat].decide(view, legal, {}))
                times.append((time.perf_counter() - started) * 1000)
                game.act(seat, chat if legal["kind"] == "text" else decision.action)
        print(f"{spec:<26} {len(times):>9} {statistics.mean(times):>8.3f} {max(times):>9.2f}")


def largest_messages(env: Any, overrides: dict[str, Any], answer) -> dict[str, int]:
    """Bytes on the wire of the largest message of each kind over one whole game."""
    game = env.new_game(env.config(None, overrides), 1, env.default_players())
    table = Watched(env, game)
    largest = dict.fromkeys(("event", "your_turn", "catch-up", "history"), 0)

    def note(kind: str, msg: dict[str, Any] | None) -> None:
        if msg is not None:
            largest[kind] = max(largest[kind], len(encode_bytes(msg)))

    recipients = [None, *range(game.players)]
    while not game.over:
        seat = min(game.pending())
        note("your_turn", outbound.turn_message(table, seat, 1, None))
        events = game.act(seat, answer(game, seat))
        for r in recipients:
            note("event", outbound.events_message(table, r, events))
        if game.step % 50 == 0:
            for r in recipients:
                note("catch-up", outbound.catch_up_message(table, r))
                note("history", outbound.history_page(table, r, 0))
    for r in recipients:
        note("catch-up", outbound.catch_up_message(table, r))
        note("history", outbound.history_page(table, r, 0))
    return largest


def message_sizes() -> None:
    print("\nLargest message of each kind over a whole game at the largest config, KiB on the wire")

    def chat(char: str):
        return lambda game, seat: (char * 600 if game.legal(seat).kind == "text"
                                   else "[0 defect] [1 defect] [2 defect]")

    rows = {"blotto largest": (BLOTTO, BLOTTO_CONFIGS["largest"],
                               lambda game, seat: game.default_action(seat)),
            "ipd paper, ascii chat": (IPD, {}, chat("x")),
            "ipd largest, ascii chat": (IPD, IPD_LARGEST, chat("x")),
            "ipd largest, 4-byte chat": (IPD, IPD_LARGEST, chat("\U0001f600"))}
    print(f"{'game':<26} {'event':>7} {'your_turn':>9} {'catch-up':>9} {'history':>8}")
    for name, (env, overrides, answer) in rows.items():
        sizes = largest_messages(env, overrides, answer)
        print(f"{name:<26} " + " ".join(f"{sizes[k] / 1024:>{w}.1f}" for k, w in
                                         (("event", 7), ("your_turn", 9), ("catch-up", 9),
                                          ("history", 8))))


def thread_hop() -> None:
    """A quick scripted decision on the loop against the same decision in a worker thread."""
    game = BLOTTO.new_game(BLOTTO.config(), 1, 2)
    bot = make_bot("scripted:uniform", BLOTTO.id, 0)
    view, legal = game.view(0), game.legal(0).to_json()

    async def run(n: int) -> tuple[float, float]:
        started = time.perf_counter()
        for _ in range(n):
            await bot.decide(view, legal, {})
        on_loop = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(n):
            await asyncio.to_thread(_finish_coroutine, bot.decide(view, legal, {}))
        return on_loop / n * 1e6, (time.perf_counter() - started) / n * 1e6

    on_loop, threaded = asyncio.run(run(2000))
    print(f"\nscripted:uniform decision: {on_loop:.1f} us on the loop, {threaded:.1f} us through "
          f"asyncio.to_thread")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="Blotto games per config")
    args = parser.parse_args()
    adaptive_decisions(args.games)
    ipd_decisions(max(1, args.games // 3))
    message_sizes()
    thread_hop()


if __name__ == "__main__":
    main()
