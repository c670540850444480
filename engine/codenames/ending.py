"""How a Codenames game ends: a team wins (all its words revealed, the other team revealed its
last word, the other team found the assassin, gave an illegal clue or gave up), or the move cap
compares the words each team has revealed (equal is a draw)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.codenames.board import illegal_reason
from engine.codenames.config import OTHER, RED, SEAT_NAMES, TEAMS, CodenamesConfig, team_of

TEAM_SEATS = ((0, 1), (2, 3))


class Ending:
    """The end of a game, mixed into `CodenamesGame` (whose state it reads)."""

    __slots__ = ()
    config: CodenamesConfig
    players: int
    left: dict[str, int]
    moves: int
    _illegal: tuple[str, str] | None
    _max_moves: int

    if TYPE_CHECKING:  # provided by engine.core.Game
        def emit(self, type: str, data: Any, visible_to: Any = "all") -> Any: ...
        def finish(self, rewards: Any, winners: Any, reason: str, **kw: Any) -> None: ...

    def _on_forfeit(self, seat: int, why: str) -> None:
        team = team_of(seat)
        if self._illegal is not None:
            word, conflict = self._illegal
            self._win(OTHER[team], "illegal_clue", f"{SEAT_NAMES[seat]} gave an illegal clue: "
                                                   f"{illegal_reason(word, conflict)}")
        else:
            self._win(OTHER[team], "forfeit", why)

    def _revealed_counts(self) -> dict[str, int]:
        counts = self.config.counts()
        return {t: counts[t] - self.left[t] for t in TEAMS}

    def _win(self, team: str, how: str, why: str) -> None:
        found = self._revealed_counts()
        self.emit("game_decided", {"winner": team, "how": how, "revealed": found,
                                   "moves": self.moves})
        seats = TEAM_SEATS[TEAMS.index(team)]
        rewards = {s: 1.0 if s in seats else -1.0 for s in range(self.players)}
        self.finish(rewards, seats, f"{why}; the {team} team wins", teams=TEAM_SEATS)

    def _move_cap(self) -> None:
        found = self._revealed_counts()
        red, blue = found[RED], found[OTHER[RED]]
        score = f"red {red} of {self.config.red_words} words, blue {blue} of " \
                f"{self.config.blue_words}"
        if red == blue:
            self.emit("game_decided", {"winner": None, "how": "move_cap", "revealed": found,
                                       "moves": self.moves})
            self.finish(dict.fromkeys(range(self.players), 0.0), (),
                        f"the move cap ({self._max_moves}) was reached with {score} revealed: "
                        f"a draw", teams=TEAM_SEATS)
            return
        team = RED if red > blue else OTHER[RED]
        self._win(team, "move_cap", f"the move cap ({self._max_moves}) was reached with "
                                    f"{score} revealed")
