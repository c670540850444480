"""Views are bounded: however long a game runs, a view (and its text) stays the size of the
current state plus a recent window; the full history is the event log."""

import json

from engine.registry import get


def size(env, view):
    return len(json.dumps(view)) + len(env.render(view))


def test_a_long_chatty_ipd_game_keeps_its_views_small():
    env = get("three-player-ipd")
    config = env.config(overrides={"rounds": 50, "communication_turns": 3,
                                   "max_chat_chars": 500})  # the largest config
    game = env.new_game(config, 1, 3)
    sizes = {}
    while not game.over:
        seat = min(game.pending())
        if game.legal(seat).kind == "text":
            game.act(seat, f"round {game.round} " + "x" * 480)
        else:
            game.act(seat, "[0 defect] [1 cooperate] [2 defect]")
        if game.round in (12, 49) and game.phase == "decide":
            sizes[game.round] = size(env, game.view(0))
    # Before bounded views a 125-round game's last your_turn was ~1 MiB, the TUI's limit.
    assert sizes[49] < 160_000 and sizes[49] < 1.2 * sizes[12]
    assert len(game.events) > 700  # the log keeps everything
    view = game.view(0)
    assert [h["round"] for h in view["public"]["history"]] == list(range(41, 51))
    assert "(rounds 1-40 are not shown)" in env.render(view)


def test_a_thousand_round_blotto_game_keeps_its_views_small():
    env = get("colonel-blotto")
    game = env.new_game(env.config(overrides={"rounds": 1000, "win_rounds": 1000}), 2, 2)
    sizes = []
    while not game.over:
        game.act(0, "[A7 B7 C6]")
        game.act(1, "[A7 B7 C6]")  # every round a tie, so the game runs all 1000 rounds
        if game.round in (30, 990) and not game.over:
            sizes.append(size(env, game.view(1)))
    assert game.result.reason.startswith("a 0-0 draw after 1000 rounds")
    assert sizes[1] < 1.05 * sizes[0]  # only the round numbers grow a digit
    view = game.view(None)
    assert len(view["public"]["history"]) == 25 and view["public"]["history"][-1]["round"] == 1000


def test_views_are_fresh_snapshots_a_reader_may_keep():
    env = get("three-player-ipd")
    game = env.new_game(env.config(), 3, 3)
    kept = game.view(1)
    before = json.dumps(kept)
    for _ in range(4):
        seat = min(game.pending())
        game.act(seat, "hello" if game.legal(seat).kind == "text" else "[0 defect]")
    assert json.dumps(kept) == before
