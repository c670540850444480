"""Scripted bots and bounded views: grim keeps a betrayal in its seat's memory after the round
has left the view's window."""

from bots.registry import make_bot
from engine.registry import get


async def test_grim_never_forgets_a_betrayal_older_than_the_view():
    env = get("three-player-ipd")
    game = env.new_game(env.config(overrides={"rounds": 30, "communication_turns": 0}), 1, 3)
    grim, memory = make_bot("scripted:grim", env.id, 0), {}
    chosen = []
    while not game.over:
        decision = await grim.decide(game.view(0), game.legal(0).to_json(), memory)
        chosen.append(decision.action)
        game.act(0, decision.action)
        game.act(1, "[0 defect]" if game.round == 1 else "[0 cooperate]")
        game.act(2, "[0 cooperate]")
    assert [h["round"] for h in game.view(0)["public"]["history"]][0] > 1  # round 1 left the view
    assert all(c == {"1": "defect", "2": "cooperate"} for c in chosen[1:])
    assert memory["grudges"] == [1]
