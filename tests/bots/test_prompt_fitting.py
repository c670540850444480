"""The prompt an LLM seat sends when its history must be cut to fit the context: byte for byte
the one the first implementation built (kept below as the reference), over long games of the
envs whose history is cut, for budgets from "everything fits" to "even the last entry is too
long", while the bot searches from where the previous decision's cut fell."""

from collections.abc import Mapping
from typing import Any

import pytest

from bots.llm.bot import LLMBot
from bots.llm.context import (
    CHARS_PER_TOKEN,
    Prompt,
    _compose,
    _cut_lines,
    _with_notes,
    estimate_tokens,
    most_that_fit,
)
from bots.llm.spec import parse_spec
from bots.prompts.base import PromptBuilder
from bots.random_bot import RandomBot
from engine.registry import get
from tests.fakes.canned import CannedProvider


def reference_prompt(builder: PromptBuilder, view: Mapping[str, Any],
                     legal: Mapping[str, Any], budget_tokens: int,
                     memory: Mapping[str, Any] | None = None) -> Prompt:
    """bots/llm/context.py's build_prompt before the search started from the last cut."""
    system = builder.system(view, legal)
    instruction = _with_notes(builder.instruction(view, legal),
                              builder.notes(view, legal, memory or {}))
    total = builder.history_length(view)
    room = budget_tokens - estimate_tokens(system)

    def fits(keep: int) -> bool:
        return estimate_tokens(_compose(builder, view, keep, total, instruction)) <= room

    whole = _compose(builder, view, total, total, instruction)
    if estimate_tokens(whole) <= room:
        return Prompt(system, whole, total, 0)
    lo, hi = 0, total
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    user = _compose(builder, view, lo, total, instruction)
    if fits(lo):
        return Prompt(system, user, total, total - lo)
    user, dropped = _cut_lines(user, max(room, 1) * CHARS_PER_TOKEN)
    return Prompt(system, user, total, total - lo, dropped)



GAMES = [("three-player-ipd", {"rounds": 30, "communication_turns": 2}),
         ("colonel-blotto", {"rounds": 60}),
         ("codenames", {}),
         ("secret-mafia", {})]


@pytest.mark.parametrize(("env_id", "overrides"), GAMES, ids=[g[0] for g in GAMES])
async def test_prompts_of_a_long_game_are_the_reference_ones(env_id, overrides):
    env = get(env_id)
    environ = {"OPENAI_API_KEY": "sk-test"}
    seen = {"cut": 0, "lines": 0, "whole": 0}
    for budget in (500, 600, 750, 900, 1200, 100_000):
        spec = parse_spec(f"openai:gpt-4o-mini?reask=false&context_tokens={budget}", environ)
        game = env.new_game(env.config(None, overrides), 5, env.default_players())
        players = env.default_players()
        movers = [RandomBot(seat) for seat in range(players)]
        bots = [LLMBot(spec, env_id, seat, environ=environ, provider=CannedProvider(spec, "sk-test"))
                for seat in range(players)]
        memories: list[dict[str, Any]] = [{} for _ in range(players)]
        while not game.over:
            for seat in sorted(game.pending()):
                view, legal = game.view(seat), game.legal(seat).to_json()
                want = reference_prompt(bots[seat].builder, view, legal, budget, memories[seat])
                move = (await movers[seat].decide(view, legal, {})).action
                bots[seat].model.provider.reply = move if isinstance(move, str) else "ok"
                got = await bots[seat].decide(view, legal, memories[seat])
                system, user = got.transcript[0], got.transcript[1]
                assert system["content"] == want.system
                assert user["content"] == want.user
                assert (user["history_cut"], user["lines_cut"]) == (want.cut, want.lines_cut)
                seen["cut" if want.cut and not want.lines_cut else
                     "lines" if want.lines_cut else "whole"] += 1
                game.act(seat, move)
    assert all(seen.values()), seen  # every way of fitting was compared


@pytest.mark.parametrize("top", range(13))
def test_the_search_from_any_start_finds_what_a_search_from_nothing_finds(top):
    for most in range(-1, top + 1):  # the most entries that fit; -1: none does
        for start in [None, *range(top + 3)]:
            asked: list[int] = []

            def fits(keep: int, most: int = most, asked: list[int] = asked) -> bool:
                assert 0 <= keep <= top
                asked.append(keep)
                return keep <= most

            assert most_that_fit(fits, top, start) == max(most, 0), (most, start)


def test_a_cut_where_the_last_one_fell_costs_two_renderings():
    # The seat's history grew by one entry and the same number still fits: it checks that
    # and that one more does not, whatever the history's length.
    for top in (10, 100, 10_000):
        asked: list[int] = []

        def fits(keep: int, asked: list[int] = asked) -> bool:
            asked.append(keep)
            return keep <= 7

        assert most_that_fit(fits, top, 7) == 7
        assert sorted(asked) == [7, 8]
        asked.clear()
        assert most_that_fit(fits, top, 8) == 7 and sorted(asked) == [7, 8]
