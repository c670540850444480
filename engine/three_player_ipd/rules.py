"""Three-player Iterated Prisoner's Dilemma (MindGames §3).

Each round: `communication_turns` chat turns in which players 0, 1, 2 speak in order (broadcast),
then one decision turn in which all three choose at once, per opponent, to cooperate or defect
(private until everyone has chosen). Each unordered pair scores the classic payoffs (R, T, S, P).
After the last round the terminal reward follows `reward_rule`: "rank" (TextArena: equal scores
form groups, ranked worst to best, reward -1 + 2g/(G-1); all tied -> 0) or "paper" (+1 to every
player with the highest total, -1 to the others; all tied -> 0). Invalid input is impossible:
missing tokens mean cooperate.
docs/rules/three-player-ipd.md states every decision where the paper and TextArena differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from engine.core import (
    NO_ACTION,
    Action,
    ActionSpace,
    Config,
    ConfigError,
    Env,
    Field,
    Game,
    Option,
)
from engine.three_player_ipd import metrics, syntax, text
from engine.three_player_ipd.actions import CHOICES, COOPERATE, DEFECT, Decisions

PLAYERS = 3
SEAT_NAMES = ("Player 0", "Player 1", "Player 2")
REWARD_RULES = ("rank", "paper")
ENV_ID = "three-player-ipd"
OPPONENTS = tuple(tuple(o for o in range(PLAYERS) if o != s) for s in range(PLAYERS))
# Each pair (a, b) with the index of b among a's opponents and of a among b's.
PAIR_SLOTS = tuple((a, b, OPPONENTS[a].index(b), OPPONENTS[b].index(a))
                   for a, b in combinations(range(PLAYERS), 2))
SEAT_KEYS = tuple(str(s) for s in range(PLAYERS))  # seat ids as JSON object keys
HISTORY_WINDOW = 10  # resolved rounds a view holds (every preset's whole game); the rest is the log
CHAT_WINDOW = 60  # chat messages a view holds (every preset's whole chat)
_ALL = frozenset(range(PLAYERS))
# Limits (rules v3): the paper's setup (5 rounds, 1 chat turn) and TextArena's class default
# (3 chat turns) with headroom, and no larger, so that no message is large: a view carries a
# window of chat, and its size grows with chat turns and message length.
MAX_ROUNDS = 50
MAX_COMMUNICATION_TURNS = 3
MAX_CHAT_CHARS = 500
_ONLY = tuple(frozenset((s,)) for s in range(PLAYERS))


@dataclass(frozen=True)
class IPDConfig(Config):
    rounds: int = 5
    communication_turns: int = 1
    R: int = 3  # both cooperate
    T: int = 5  # defect against a cooperator
    S: int = 0  # cooperate against a defector
    P: int = 1  # both defect
    reward_rule: str = "rank"
    max_chat_chars: int = 500

    def validate(self) -> None:
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be between 1 and {MAX_ROUNDS}, got {self.rounds}")
        if not 0 <= self.communication_turns <= MAX_COMMUNICATION_TURNS:
            raise ConfigError(f"communication_turns must be between 0 and "
                              f"{MAX_COMMUNICATION_TURNS}, got {self.communication_turns}")
        if not self.T > self.R > self.P > self.S:
            raise ConfigError(f"payoffs must satisfy T > R > P > S for a prisoner's dilemma, got "
                              f"T={self.T} R={self.R} P={self.P} S={self.S}")
        if self.reward_rule not in REWARD_RULES:
            raise ConfigError(f"unknown reward_rule {self.reward_rule!r}; valid rules: "
                              f"{', '.join(REWARD_RULES)}")
        if not 1 <= self.max_chat_chars <= MAX_CHAT_CHARS:
            raise ConfigError(f"max_chat_chars must be between 1 and {MAX_CHAT_CHARS}, got "
                              f"{self.max_chat_chars}")


PRESETS: dict[str, IPDConfig] = {
    "paper": IPDConfig(),
    "paper-reward": IPDConfig(reward_rule="paper"),
    "long": IPDConfig(rounds=10, communication_turns=2),
}


def payoff_table(config: IPDConfig) -> dict[tuple[str, str], tuple[int, int]]:
    """(choice of a, choice of b) -> (gain of a, gain of b) for one pair in one round."""
    c = config
    return {(COOPERATE, COOPERATE): (c.R, c.R), (COOPERATE, DEFECT): (c.S, c.T),
            (DEFECT, COOPERATE): (c.T, c.S), (DEFECT, DEFECT): (c.P, c.P)}


def chat_space(max_chars: int) -> ActionSpace:
    return ActionSpace(kind="text", prompt="Send one chat message to the other players.",
                       max_chars=max_chars)


def _decision_space(seat: int) -> ActionSpace:
    opponents = OPPONENTS[seat]
    options = tuple(Option(c, c) for c in CHOICES)
    return ActionSpace(
        kind="form",
        prompt="Choose, for each opponent, to cooperate or defect (default cooperate).",
        syntax=syntax.decision_text(Decisions(((opponents[0], "defect"),
                                               (opponents[1], COOPERATE)))),
        fields=tuple(Field(str(o), f"Against {SEAT_NAMES[o]}", "choice", options=options,
                           default=COOPERATE) for o in opponents))


DECISION_SPACES = tuple(_decision_space(s) for s in range(PLAYERS))  # the same in every game


def terminal_rewards(scores: Sequence[int], rule: str) -> dict[int, float]:
    """Rewards from final scores under the "rank" or "paper" rule; all tied -> 0 for everyone."""
    seats = range(len(scores))
    if len(set(scores)) == 1:
        return dict.fromkeys(seats, 0.0)
    if rule == "paper":
        top = max(scores)
        return {s: 1.0 if scores[s] == top else -1.0 for s in seats}
    levels = sorted(set(scores))  # worst first; equal scores share a group
    g_max = len(levels) - 1
    return {s: -1.0 + 2.0 * levels.index(scores[s]) / g_max for s in seats}


# Who has decided, per set of seats still deciding: lists shared by views, never changed.
_DECIDED = {frozenset(w): [s not in w for s in range(PLAYERS)]
            for n in range(PLAYERS + 1) for w in combinations(range(PLAYERS), n)}
_NOBODY_DECIDED = _DECIDED[_ALL]
_COOPERATE_ALL = tuple({str(o): COOPERATE for o in OPPONENTS[s]} for s in range(PLAYERS))
_UNDECIDED = tuple({"name": SEAT_NAMES[s], "id": s, "opponents": list(OPPONENTS[s]),
                    "decisions": None} for s in range(PLAYERS))


Choices = tuple[tuple[int, str], ...]  # one seat's (opponent, choice) pairs
Outcome = tuple[list[dict[str, Any]], list[int], dict[str, dict[str, str]]]


def round_outcome(payoff: Mapping[tuple[str, str], tuple[int, int]],
                  chosen: Sequence[Choices]) -> Outcome:
    """What a round's choices give: per pair the choices and gains, each seat's gain, and who
    chose what against whom (seat ids as JSON keys)."""
    gains, pairs = [0] * PLAYERS, []
    for a, b, a_vs_b, b_vs_a in PAIR_SLOTS:
        ca, cb = chosen[a][a_vs_b][1], chosen[b][b_vs_a][1]
        ga, gb = payoff[ca, cb]
        gains[a] += ga
        gains[b] += gb
        pairs.append({"players": [a, b], "choices": [ca, cb], "gains": [ga, gb]})
    decisions = {SEAT_KEYS[s]: {SEAT_KEYS[o]: ch for o, ch in chosen[s]} for s in range(PLAYERS)}
    return pairs, gains, decisions


@lru_cache(maxsize=64)
def _setup(config: IPDConfig) -> tuple[dict[tuple[str, str], tuple[int, int]], ActionSpace,
                                       dict[str, Any], dict[tuple[Choices, ...], Outcome]]:
    """What every game of a config shares: the payoff table, the chat action space, the fixed
    part of the public view, and round outcomes (64 possible, made when first seen) — all
    read-only, like every view."""
    c = config
    fixed = {"players": list(SEAT_NAMES), "rounds": c.rounds,
             "communication_turns": c.communication_turns,
             "payoffs": {"R": c.R, "T": c.T, "S": c.S, "P": c.P}, "reward_rule": c.reward_rule}
    return payoff_table(c), chat_space(c.max_chat_chars), fixed, {}


class IPDGame(Game):
    __slots__ = ("_payoff", "_chat_space", "_fixed", "_outcomes", "_max_chat", "_rounds",
                 "_turns", "round", "chat_turn", "speaker", "phase", "scores", "chat", "history",
                 "_decisions", "_decided")
    config: IPDConfig

    def __init__(self, env: Env, config: IPDConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self._payoff, self._chat_space, self._fixed, self._outcomes = _setup(config)
        self._max_chat, self._rounds = config.max_chat_chars, config.rounds
        self._turns = config.communication_turns
        self.round = 1
        self.chat_turn = 0  # index of the current chat turn within the round
        self.speaker = 0
        self.phase = "chat"
        self.scores = [0] * PLAYERS
        self.chat: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self._decisions: list[Decisions | None] = [None] * PLAYERS
        self._decided = _NOBODY_DECIDED
        self._start_round()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        return self._chat_space if self.phase == "chat" else DECISION_SPACES[seat]

    def _public_state(self) -> dict[str, Any]:
        public = self._fixed.copy()
        result = self._result
        public["round"] = self.round
        public["phase"] = "over" if result else self.phase
        public["chat_turn"] = self.chat_turn
        public["speaker"] = self.speaker if result is None and self.phase == "chat" else None
        public["scores"] = self.scores[:]
        public["chat"] = self.chat[-CHAT_WINDOW:]
        public["history"] = self.history[-HISTORY_WINDOW:]
        public["decided"] = self._decided[:]
        return public

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = self._decisions[seat]
        if mine is None:
            return {**_UNDECIDED[seat]}
        return {**_UNDECIDED[seat], "decisions": {str(o): ch for o, ch in mine.choices}}

    def default_action(self, seat: int) -> dict[str, str]:
        """Say nothing on a chat turn; cooperate with both opponents on a decision turn."""
        return {"text": ""} if self.phase == "chat" else _COOPERATE_ALL[seat]

    def _apply(self, seat: int, action: Action) -> None:
        if self.phase == "chat":
            entry = {"round": self.round, "turn": self.chat_turn, "seat": seat,
                     "text": syntax.parse_chat(action, self._max_chat).text}
            self.chat.append(entry)
            self.emit("chat", entry)
            speaker = self.speaker + 1
            if speaker < PLAYERS:
                self.speaker, self._waiting = speaker, _ONLY[speaker]
            else:
                self._next_chat_turn()
        else:
            self._decisions[seat] = syntax.parse_decisions(action, OPPONENTS[seat])
            self._waiting = waiting = self._waiting - _ONLY[seat]
            self._decided = _DECIDED[waiting]
            self.emit("decision_submitted", {"seat": seat, "round": self.round})
            if not waiting:
                self._resolve_round()

    # -- rules ---------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.clock = {"round": self.round, "phase": "chat" if self._turns else "decide"}
        self.chat_turn = self.speaker = 0
        self._decisions = [None] * PLAYERS
        self._decided = _NOBODY_DECIDED
        self.emit("round_started", {"round": self.round, "rounds": self._rounds,
                                    "communication_turns": self._turns})
        if self._turns:
            self.phase, self._waiting = "chat", _ONLY[0]
        else:
            self._open_decisions()

    def _next_chat_turn(self) -> None:
        self.chat_turn += 1
        if self.chat_turn == self._turns:
            self._open_decisions()
        else:
            self.speaker, self._waiting = 0, _ONLY[0]

    def _open_decisions(self) -> None:
        if self._turns:
            self.clock = {"round": self.round, "phase": "decide"}
        self.phase, self._waiting = "decide", _ALL
        self.emit("decisions_open", {"round": self.round})

    def _resolve_round(self) -> None:
        # chosen[s] is seat s's ((opponent, choice), ...) in seat order.
        d0, d1, d2 = self._decisions
        chosen = (d0.choices, d1.choices, d2.choices)  # type: ignore[union-attr]
        outcome = self._outcomes.get(chosen) or self._outcomes.setdefault(
            chosen, round_outcome(self._payoff, chosen))
        pairs, gains, decisions = outcome
        s0, s1, s2 = self.scores
        self.scores = scores = [s0 + gains[0], s1 + gains[1], s2 + gains[2]]
        entry = {"round": self.round, "pairs": pairs, "gains": gains, "scores": scores,
                 "decisions": decisions}
        self.history.append(entry)
        self.emit("round_resolved", entry)
        if self.round >= self._rounds:
            self._end()
        else:
            self.round += 1
            self._start_round()

    def _end(self) -> None:
        rewards = terminal_rewards(self.scores, self.config.reward_rule)
        best = max(rewards.values())
        winners = () if len(set(rewards.values())) == 1 else \
            tuple(s for s in range(PLAYERS) if rewards[s] == best)
        scores = ", ".join(f"{SEAT_NAMES[s]} {self.scores[s]}" for s in range(PLAYERS))
        if winners:
            who = " and ".join(SEAT_NAMES[s] for s in winners)
            reason = f"{who} {'wins' if len(winners) == 1 else 'win'} on final scores: {scores}"
        else:
            reason = f"all tied on final scores: {scores}"
        self.finish(rewards, winners, reason)


class ThreePlayerIPDEnv(Env):
    id = ENV_ID
    title = "Three-player Iterated Prisoner's Dilemma"
    description = "Three players chat, then each chooses to cooperate or defect with each other."
    players = (PLAYERS,)
    # v2: Unicode seat ids with leading zeros, chat cleaned before the cut; v3: config limits
    # (at most 50 rounds, 3 chat turns, 500 characters a message)
    rules_version = "3"
    Config = IPDConfig
    game_class = IPDGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = SEAT_NAMES
    on_timeout = "void"  # MindGames: timed-out games are discarded
    scripted_bots = "bots.scripted.three_player_ipd"
    prompt_builder = "bots.prompts.three_player_ipd:IPDPrompts"
    widget = "tui.widgets.ipd:IpdGame"

    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

