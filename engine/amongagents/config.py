"""AmongAgents' config, presets, the deal of roles, colours and tasks (spec §1, §4.3, §17;
docs/rules/amongagents.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.amongagents.ship import COMMON, LONG, SHORT, TASKS_OF_TYPE, VENT_SETS, TaskKind
from engine.core import Config, ConfigError, Role, derive_seed

# Role names are capitalised and sides lower-case, so no role name is a side name.
CREWMATE, IMPOSTOR = "Crewmate", "Impostor"
CREW_SIDE, IMPOSTOR_SIDE = "crew", "impostor"
COLOURS = ("red", "blue", "green", "pink", "orange", "yellow", "black", "white", "purple",
           "brown", "cyan", "lime")
MIN_PLAYERS, MAX_PLAYERS = 4, len(COLOURS)
MAX_ROUNDS, MAX_TIMESTEPS, MAX_CHAT_CHARS = 5, 200, 1000


@dataclass(frozen=True)
class AmongConfig(Config):
    players: int = 5
    impostors: int = 1
    common_tasks: int = 1  # per player (the impostors get copies to fake)
    short_tasks: int = 1  # per crewmate
    long_tasks: int = 1  # per crewmate
    discussion_rounds: int = 3
    max_buttons: int = 2  # meetings by the button; a report uses one up too (spec §7)
    kill_cooldown: int = 3
    max_timesteps: int = 50
    vents: str = "declared"  # "declared" (9 vents) or "released-code" (the 3 that work there)
    allow_skip: bool = False  # may a voter skip (a vote for nobody that counts)?
    reveal_role_on_ejection: bool = False  # does the ejection announcement name the role?
    memory: int = 4  # the last k observations and own actions a view holds (spec §9)
    max_chat_chars: int = 300

    def validate(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got "
                              f"{self.players}")
        if not 1 <= self.impostors or 2 * self.impostors >= self.players:
            raise ConfigError(f"impostors must be at least 1 and fewer than the crewmates, got "
                              f"{self.impostors} of {self.players} players")
        for name, kind in (("common_tasks", COMMON), ("short_tasks", SHORT),
                           ("long_tasks", LONG)):
            value, room = getattr(self, name), len(TASKS_OF_TYPE[kind])
            per = 1 if kind == COMMON else self.players
            if value < 0 or value * per > room:
                raise ConfigError(f"{name} must be between 0 and {room // per} for "
                                  f"{self.players} players, got {value}")
        if self.common_tasks + self.short_tasks + self.long_tasks < 1:
            raise ConfigError("a crewmate needs at least one task")
        if not 1 <= self.discussion_rounds <= MAX_ROUNDS:
            raise ConfigError(f"discussion_rounds must be between 1 and {MAX_ROUNDS}, got "
                              f"{self.discussion_rounds}")
        if not 0 <= self.max_buttons <= 10:
            raise ConfigError(f"max_buttons must be between 0 and 10, got {self.max_buttons}")
        if not 0 <= self.kill_cooldown <= 20:
            raise ConfigError(f"kill_cooldown must be between 0 and 20, got {self.kill_cooldown}")
        if not 1 <= self.max_timesteps <= MAX_TIMESTEPS:
            raise ConfigError(f"max_timesteps must be between 1 and {MAX_TIMESTEPS}, got "
                              f"{self.max_timesteps}")
        if self.vents not in VENT_SETS:
            raise ConfigError(f"vents must be one of {', '.join(VENT_SETS)}, got {self.vents!r}")
        if not 1 <= self.memory <= 20:
            raise ConfigError(f"memory must be between 1 and 20, got {self.memory}")
        if not 1 <= self.max_chat_chars <= MAX_CHAT_CHARS:
            raise ConfigError(f"max_chat_chars must be between 1 and {MAX_CHAT_CHARS}, got "
                              f"{self.max_chat_chars}")


PRESETS: dict[str, AmongConfig] = {
    # The paper's experiments: 4 crewmates + 1 impostor, 1 common + 1 short + 1 long task.
    "paper": AmongConfig(),
    # The released code's SEVEN_MEMBER_GAME.
    "seven": AmongConfig(players=7, impostors=2),
    # What the released code runs for the 5-player game where it differs from the paper:
    # no long task, and only three of the declared vents work (spec §3.3, §16).
    "released-code": AmongConfig(long_tasks=0, vents="released-code"),
}


def assign_roles(config: AmongConfig, seed: int, players: int) -> tuple[Role, ...]:
    """`config.impostors` impostors among the seats, drawn from the "roles" sub-seed."""
    if players != config.players:
        raise ConfigError(f"this amongagents config is played by {config.players} players, not "
                          f"{players}")
    seats = random.Random(derive_seed(seed, "roles")).sample(range(players), config.impostors)
    return tuple(Role(IMPOSTOR, IMPOSTOR_SIDE) if s in seats else Role(CREWMATE, CREW_SIDE)
                 for s in range(players))


def deal_colours(seed: int, players: int) -> tuple[str, ...]:
    """Each seat's colour, drawn without replacement (public; its own sub-seed)."""
    return tuple(random.Random(derive_seed(seed, "colours")).sample(COLOURS, players))


def deal_tasks(config: AmongConfig, seed: int) -> tuple[tuple[TaskKind, ...], ...]:
    """Each seat's task list as if every seat were a crewmate (spec §4.3: the common task(s)
    shared by all, then distinct short and long instances per seat); the rules keep only the
    common ones for impostors. Dealing every seat the same way means a crewmate's tasks never
    depend on who the impostors are."""
    rng = random.Random(derive_seed(seed, "tasks"))
    common = tuple(rng.sample(TASKS_OF_TYPE[COMMON], config.common_tasks))
    shorts = rng.sample(TASKS_OF_TYPE[SHORT], config.short_tasks * config.players)
    longs = rng.sample(TASKS_OF_TYPE[LONG], config.long_tasks * config.players)
    s, lg = config.short_tasks, config.long_tasks
    return tuple(common + tuple(shorts[i * s:(i + 1) * s]) + tuple(longs[i * lg:(i + 1) * lg])
                 for i in range(config.players))
