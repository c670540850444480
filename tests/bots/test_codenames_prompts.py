"""The Codenames prompt builder: role prompts, the answer formats, extraction of the last bracketed
move, checks with the engine's own parser and illegal-clue rule, and a whole game of LLM bots
(the real `openai` client against a fake server) where an illegal clue is caught and re-asked."""

import re

from bots.prompts import builder_for
from bots.prompts.codenames import CodenamesPrompts
from engine.codenames.board import example_clue
from engine.registry import get
from tests.fakes import FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, play, provider_env

__all__ = ["close_llm_bots"]  # autouse fixture

ENV = get("codenames")


def game(seed=0):
    return ENV.new_game(ENV.config(), seed, 4)


def test_the_env_names_this_builder():
    assert isinstance(builder_for("codenames"), CodenamesPrompts)


def test_role_prompts_and_instructions():
    g = game()
    builder = builder_for("codenames")
    spy = builder.system(g.view(0), g.legal(0).to_json())
    assert "red spymaster" in spy and "loses the game" in spy and f"[{example_clue()} 2]" in spy
    assert "0 to 9" in spy and "80 moves" in spy
    assert f"for example [{example_clue()} 2]" in builder.instruction(g.view(0),
                                                                      g.legal(0).to_json())
    g.act(0, f"[{example_clue()} 2]")
    op = builder.system(g.view(1), g.legal(1).to_json())
    assert "red operative" in op and "[pass]" in op
    text = builder.instruction(g.view(1), g.legal(1).to_json())
    assert f"[{example_clue()} 2]" in text and "3 guess(es) left" in text
    assert "[word]" in text and "for example [pass]" in text
    assert not any(f"[{w}]" in text for w in g.words)  # no board word is suggested
    assert builder.phase(g.view(1), g.legal(1).to_json()) == "guess"


def test_extract_takes_the_last_bracketed_move():
    builder, g = builder_for("codenames"), game()
    view, legal = g.view(0), g.legal(0).to_json()
    assert builder.extract("<think>[whale 9]</think> maybe [ocean 2]... no: [forest 3]",
                           view, legal) == "[forest 3]"
    assert builder.extract("forest 3", view, legal) == "forest 3"  # no brackets: the whole reply


def test_checks_use_the_engines_parser_and_rule():
    builder, g = builder_for("codenames"), game(4)
    view, legal = g.view(0), g.legal(0).to_json()
    word = g.words[0]
    verdict = builder.check(f"[{word.upper()} 2]", view, legal)
    assert verdict.kind == "illegal" and f"'{word}'" in verdict.message
    assert "loses the game" in verdict.message and verdict.read_as == f"[{word} 2]"
    assert builder.check(f"[{word[:3]}x{word} 1]", view, legal).kind == "illegal"
    assert builder.check("[ocean]", view, legal).kind == "unparseable"
    assert builder.check(f"[{example_clue()} 12]", view, legal).kind == "illegal"
    assert builder.check(f"[{example_clue()} 2]", view, legal) is None
    assert builder.check("[pass]", view, legal) is None
    g.act(0, f"[{example_clue()} 2]")
    view, legal = g.view(1), g.legal(1).to_json()
    assert builder.check(f"[{g.words[3]}]", view, legal) is None
    assert builder.check("[pass]", view, legal) is None
    assert builder.check("[zzzz]", view, legal).kind == "illegal"
    assert builder.check("[two words]", view, legal).kind == "unparseable"


def test_cut_history_is_summarised():
    g = game(5)
    for _ in range(3):
        g.act(min(g.pending()), f"[{example_clue()} 1]")
        g.act(min(g.pending()), "[pass]")
    builder = builder_for("codenames")
    view = g.view(0)
    assert builder.history_length(view) == 3
    summary = builder.summarize(view, 2)
    assert summary.startswith("Earlier clues (turns 1-2)") and f"red [{example_clue()} 1]" in summary
    assert "Turn 1," not in builder.render(view, 1) and "Turn 3," in builder.render(view, 1)


BOARD_LINE = re.compile(r"^  ([a-z]+)\s", re.M)
HIDDEN_LINE = re.compile(r"^  ([a-z]+)$", re.M)  # an operative's board line without a colour


def responder(request):
    """A model that first tries a board word as its clue (illegal), then, told why, gives the
    example clue; as operative it names the first hidden word of its board."""
    text = request.last_user_text()
    if "is not allowed" in text or "could not be read" in text:
        return Reply(f"Sorry. [{example_clue()} 1]")
    if "Give your clue now" in text:
        return Reply(f"Let me think... [{BOARD_LINE.search(text).group(1)} 2]")
    hidden = HIDDEN_LINE.search(text)
    return Reply(f"I'll try [{hidden.group(1)}]" if hidden else "[pass]")


async def test_a_whole_game_with_llm_bots_catches_an_illegal_clue():
    with FakeOpenAI(responder=responder) as fo:
        environ = provider_env(fo.base_url)
        bots = [llm_bot(f"openai:gpt-4o-mini?{FAST}", "codenames", s, environ) for s in range(4)]
        memories = [{} for _ in range(4)]
        g = game(12)  # a board on which every seat gets a turn
        decisions = await play(g, bots, memories)
        requests = fo.completion_requests
    assert g.over and not g.result.void
    assert all(a.outcome == "ok" for a in g.actions)  # the illegal clue never reached the game
    assert memories[0]["llm"]["reasks"] >= 1
    note = next(m for _, d in decisions for m in d.transcript if m.get("reask") == "illegal")
    assert "is a word on the board" in note["content"] and "loses the game" in note["content"]
    assert all(d.prompt_tokens > 0 for _, d in decisions)
    assert len(requests) == len(decisions) + sum(m["llm"]["reasks"] for m in memories)
    clues = [e.data["word"] for e in g.events if e.type == "clue_given"]
    assert clues and set(clues) == {example_clue()}
    assert any(e.type == "guess_made" for e in g.events)
