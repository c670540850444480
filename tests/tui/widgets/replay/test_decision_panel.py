"""The replay's decision panel in words: an invalid move says so and why, a bot's usage, raw
output and memory notes, a person's think time."""

from __future__ import annotations

from tui.widgets.replay.decision_panel import PROMPT_SHOWN, decision_text

NAMES = ["ann", "gpt"]


def test_a_bots_invalid_move_shows_its_error_usage_raw_output_and_memory_notes():
    prompt = ("Rules... " * 40 + "\n\nYour notes from earlier turns:\nbob lied on day 1\n\n"
              "Answer with your vote.")
    text = decision_text({
        "seat": 1, "kind": "bot", "raw": "vote moon", "outcome": "invalid",
        "error": "no player called moon", "raw_output": "I think... vote moon",
        "usage": {"prompt_tokens": 812, "completion_tokens": 40, "cost": 0.0},
        "latency_ms": 1234.4, "think_seconds": None,
        "transcript": [{"role": "system", "content": "You play Secret Mafia."},
                       {"role": "user", "content": prompt},
                       {"role": "assistant", "content": "I think... vote moon"}]},
        NAMES).plain
    assert "gpt (bot)" in text and "move  vote moon" in text
    assert "INVALID: no player called moon" in text
    assert "prompt tokens 812" in text and "completion tokens 40" in text
    assert "latency 1234 ms" in text
    assert "Raw output\nI think... vote moon" in text
    assert "memory — your notes from earlier turns:\nbob lied on day 1" in text
    assert f"({len(prompt)} characters)" in text and prompt[:PROMPT_SHOWN + 40] not in text
    assert "think time" not in text


def test_a_persons_move_shows_its_think_time_and_no_step_says_so():
    text = decision_text({"seat": 0, "kind": "human", "raw": {"A": 7}, "outcome": "ok",
                          "error": None, "raw_output": None, "transcript": None, "usage": None,
                          "latency_ms": None, "think_seconds": 3.25}, NAMES).plain
    assert "ann (human)" in text and 'move  {"A": 7}' in text and "think time  3.2 s" in text
    assert "INVALID" not in text and "Raw output" not in text
    assert "No decision at this step" in decision_text(None, NAMES).plain
