"""The IPD prompt builder reads the real engine view: payoffs from the config, and a summary of
cut rounds that keeps what matters (who cooperated with whom, the scores)."""

from bots.prompts import builder_for
from engine.registry import get


def test_system_prompt_uses_the_configured_payoffs():
    env = get("three-player-ipd")
    game = env.new_game(env.config("paper", {"T": 7, "R": 4}), 0, 3)
    text = builder_for(env.id).system(game.view(2), game.legal(0).to_json())
    assert "You are Player 2" in text and "4 points each" in text and "defector gets 7" in text


def test_cut_history_is_summarised_and_old_chat_dropped():
    env = get("three-player-ipd")
    game = env.new_game(env.config("long"), 0, 3)
    plays = {0: "[1 cooperate] [2 cooperate]", 1: "[0 defect] [2 cooperate]", 2: ""}
    while game.round < 5:
        seat = min(game.pending())
        game.act(seat, f"round {game.round} from {seat}" if game.phase == "chat" else plays[seat])
    builder = builder_for(env.id)
    view = game.view(0)
    summary = builder.summarize(view, 3)
    assert "Player 1 cooperated with you in 0 of 3 rounds; you cooperated with them in 3" in summary
    assert "Player 2 cooperated with you in 3 of 3 rounds" in summary
    assert "Scores after round 3: Player 0 9; Player 1 24; Player 2 18" in summary
    text = builder.render(view, 1)
    assert "round 4 from 1" in text and "round 3 from 1" not in text
    assert "Round 4 results" in text and "Round 3 results" not in text
