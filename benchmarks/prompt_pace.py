"""An LLM seat's own CPU per decision over a long game (issue 27: nothing per decision that
grows with the game): `LLMBot.decide` with an in-process provider that answers at once (no
HTTP, no SDK), so what is timed is Parlor's side of a decision — the prompt fitted to the
context window, the transcript, the answer read and checked, the usage counted.

Games: three-player IPD (50 rounds, 3 chat turns) and Colonel Blotto (1,000 rounds), moves
from seeded random bots, each at two context budgets: one where the whole history fits and one
where most of it is cut every decision (the search for what fits). Printed per game and budget:
mean µs per decision over the first and the last tenth of the game's decisions, and over all.
`game.view` and the random moves are not timed. `--root DIR` runs another checkout's code (e.g.
main's, for before/after).

    PYTHONPATH=. python benchmarks/prompt_pace.py [--repeats 3] [--root DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GAMES = [("three-player-ipd", {"rounds": 50, "communication_turns": 3}, (100_000, 600)),
         ("colonel-blotto", {"rounds": 1000}, (100_000, 700))]


async def play(env_id: str, overrides: dict[str, Any], budget: int) -> list[float]:
    """Seconds of `decide` per decision, in the game's order."""
    from bots.llm.bot import LLMBot
    from bots.llm.spec import parse_spec
    from bots.random_bot import RandomBot
    from engine.registry import get

    # this checkout's fake provider, beside --root's code
    canned = importlib.util.spec_from_file_location("canned", HERE.parent / "tests/fakes/canned.py")
    assert canned is not None and canned.loader is not None
    module = importlib.util.module_from_spec(canned)
    canned.loader.exec_module(module)

    env = get(env_id)
    environ = {"OPENAI_API_KEY": "sk-bench"}
    spec = parse_spec(f"openai:gpt-4o-mini?reask=false&context_tokens={budget}", environ)
    players = env.default_players()
    game = env.new_game(env.config(None, overrides), 1, players)
    movers = [RandomBot(seat) for seat in range(players)]
    bots = [LLMBot(spec, env_id, seat, environ=environ, provider=module.CannedProvider(spec, "sk-bench"))
            for seat in range(players)]
    memories: list[dict[str, Any]] = [{} for _ in range(players)]
    spent: list[float] = []
    while not game.over:
        for seat in sorted(game.pending()):
            view, legal = game.view(seat), game.legal(seat).to_json()
            move = (await movers[seat].decide(view, legal, {})).action
            bots[seat].model.provider.reply = move if isinstance(move, str) else "ok"
            started = time.process_time()
            await bots[seat].decide(view, legal, memories[seat])
            spent.append(time.process_time() - started)
            game.act(seat, move)
    return spent


async def main(args: argparse.Namespace) -> None:
    print(f"code from {args.root}; µs of CPU per decision (min–max over {args.repeats} "
          f"repeats)")
    for env_id, overrides, budgets in GAMES:
        for budget in budgets:
            first, last, whole = [], [], []
            for _ in range(args.repeats):
                spent = await play(env_id, overrides, budget)
                tenth = max(len(spent) // 10, 1)
                first.append(statistics.mean(spent[:tenth]) * 1e6)
                last.append(statistics.mean(spent[-tenth:]) * 1e6)
                whole.append(statistics.mean(spent) * 1e6)
            print(f"  {env_id:17} context {budget:>6} tokens, {len(spent):5} decisions: "
                  f"first tenth {min(first):5.0f}–{max(first):5.0f}, last tenth "
                  f"{min(last):5.0f}–{max(last):5.0f}, all {min(whole):5.0f}–{max(whole):5.0f}",
                  flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--root", default=str(HERE.parent),
                        help="the checkout whose code runs (default: this one)")
    arguments = parser.parse_args()
    sys.path.insert(0, str(Path(arguments.root).resolve()))
    asyncio.run(main(arguments))
