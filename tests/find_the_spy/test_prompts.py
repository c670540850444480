"""Find the Spy's LLM prompts: the seat's own word only, the paper's answer line, and checks
that use the engine's leak check and vote reader."""

import json

from bots.prompts.find_the_spy import FindTheSpyPrompts
from engine.find_the_spy.config import FindTheSpyConfig
from engine.find_the_spy.env import FindTheSpyEnv

ENV = FindTheSpyEnv()
PROMPTS = FindTheSpyPrompts(ENV)


def _game(seed=4):
    return ENV.new_game(FindTheSpyConfig(), seed, 4)


def test_the_system_prompt_gives_the_seats_word_and_never_the_other():
    game = _game()
    for seat in range(4):
        view, legal = game.view(seat), game.legal(seat).to_json()
        text = PROMPTS.system(view, legal)
        other = game.pair.other(game.words[seat])
        assert f'Your word is "{game.words[seat]}"' in text and f'"{other}"' not in text
        assert f"You are Player {seat + 1}." in text


def test_a_leaking_description_is_refused_before_it_reaches_the_engine():
    game = _game()
    view, legal = game.view(0), game.legal(0).to_json()
    word = game.words[0]
    assert PROMPTS.phase(view, legal) == "describe"
    action = PROMPTS.extract(f"<think>my word is {word}</think>Description: \"Often seen "
                             f"outdoors.\"", view, legal)
    assert action == "Often seen outdoors."
    assert PROMPTS.check(action, view, legal) is None
    verdict = PROMPTS.check(f"Lots of {word.capitalize()}s.", view, legal)
    assert verdict and verdict.kind == "illegal" and word in verdict.message


def test_the_vote_asks_for_the_papers_answer_line_and_reads_the_last_one():
    game = _game()
    while game.phase == "describe":
        (seat,) = game.pending()
        game.act(seat, "Nothing special.")
    view, legal = game.view(1), game.legal(1).to_json()
    json.dumps(legal)
    assert PROMPTS.phase(view, legal) == "vote"
    assert "Final Answer: Player X" in PROMPTS.instruction(view, legal)
    reply = PROMPTS.extract("Player 3 seems odd.\nFinal Answer: Player 4", view, legal)
    assert PROMPTS.check(reply, view, legal) is None
    assert PROMPTS.check("Final Answer: Player 9", view, legal).kind == "illegal"
    assert PROMPTS.check("I cannot tell", view, legal) is None  # an answer, scored wrong
    game.act(1, reply)
    assert game.votes[1] == 4
