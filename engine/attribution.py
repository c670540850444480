"""Invalid-move attribution shared by every env (MindGames §10: Clean, Caused, Witnessed,
Self-Forf., Opp-Forf.). It reads the action record, where the base `Game` notes every rejected
move (outcome "invalid") and whether it forfeited or eliminated its seat (`fatal`), so it works
for every env whatever its events are called. Records stored before actions carried a category
count fatal errors from their `forfeit` events instead.
"""

from __future__ import annotations

from engine.core import GameRecord

# Plain labels of the columns `error_attribution` gives every seat.
ATTRIBUTION_LABELS = {
    "invalid_caused": "Invalid moves made",
    "invalid_witnessed": "Invalid moves by others",
    "self_forfeit": "Forfeited by own invalid moves",
    "opponent_forfeit": "Another seat forfeited by invalid moves",
    "clean": "Game without invalid moves",
}


def error_attribution(record: GameRecord) -> dict[str, dict[str, int]]:
    """Per seat (as a string key): invalid moves caused and witnessed, forfeits, clean game."""
    caused = [0] * record.players
    forfeits = [0] * record.players
    legacy = False
    for a in record.actions:
        if a.outcome == "invalid":
            caused[a.seat] += 1
            forfeits[a.seat] += a.fatal
            legacy = legacy or a.category is None
    if legacy:
        forfeits = [0] * record.players
        for e in record.events:
            if e.type == "forfeit":
                forfeits[e.data["seat"]] += 1
    total_invalid, total_forfeits = sum(caused), sum(forfeits)
    return {str(s): {"invalid_caused": caused[s], "invalid_witnessed": total_invalid - caused[s],
                     "self_forfeit": forfeits[s], "opponent_forfeit": total_forfeits - forfeits[s],
                     "clean": int(total_invalid == 0)}
            for s in range(record.players)}

