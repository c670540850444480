"""SocialGrid's config and presets (spec §1, §15, §16, §21; docs/rules/socialgrid.md)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Config, ConfigError
from engine.socialgrid import mapgen

CREW, IMPOSTORS = "crew", "impostors"  # the sides
CREWMATE, IMPOSTOR = "crewmate", "impostor"  # the roles
HISTORY = 5  # own recent steps in a view (the paper's SELF HISTORY)
STALL_STEPS = 5  # steps in one place that raise the stall alert
OBSERVATIONS = ("limited", "global")
ORACLE_LEVELS = ("high", "mid", "low")
PACES = ("lockstep", "tick")
MAX_PLAYERS = 10
MAX_STEPS = 2500
# A step's cost grows with the map (the oracle's fields cover every tile x facing) and so does
# what a table holds: maps up to 2,500 tiles, room for the paper's largest (45 x 45: 4x4 rooms
# of 10x10; 39 x 39: 2x2 of 18x18) and not for a 77 x 77 map (18x18 rooms, 4x4).
MAX_TILES = 2500


def seat_name(seat: int) -> str:
    """The paper's player names: Player_0, Player_1, ..."""
    return f"Player_{seat}"


@dataclass(frozen=True)
class SocialGridConfig(Config):
    room_size: int = 10  # floor tiles per room side: 7, 10, 14 or 18
    rows: int = 2  # the layout of rooms, rows x cols
    cols: int = 2
    impostors: int = 2  # the rest of the seats are crewmates
    observation: str = "limited"  # "limited": a field of view; "global": the whole map
    fov_radius: int = 4
    max_steps: int = MAX_STEPS
    vote_interval: int = 200  # a scheduled meeting every this many steps (0: none)
    oracle: str = "high"  # the Planning Oracle's level: high, mid or low (no hints)
    kill_cooldown: int = 30  # steps between kills, also at the start and after a meeting
    button_calls: int = 1  # emergency meetings each player may call
    reveal_ejected: bool = True  # a meeting announces the ejected player's role
    pace: str = "lockstep"  # tables: "lockstep" waits for every seat; "tick" steps every tick_ms
    tick_ms: int = 1000

    def validate(self) -> None:
        try:
            mapgen.validate(self.room_size, self.rows, self.cols)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        width, height = mapgen.map_size(self.room_size, self.rows, self.cols)
        if width * height > MAX_TILES:
            raise ConfigError(
                f"a {self.rows}x{self.cols} map of {self.room_size}x{self.room_size} rooms is "
                f"{width} x {height} = {width * height} tiles; at most {MAX_TILES} are allowed "
                f"(fewer rooms or smaller rooms, e.g. 4x4 rooms of 10x10 or 2x2 of 18x18)")
        checks = (
            (0 <= self.impostors <= 4, f"impostors must be 0..4, got {self.impostors}"),
            (self.observation in OBSERVATIONS,
             f"observation must be one of {', '.join(OBSERVATIONS)}, got {self.observation!r}"),
            (1 <= self.fov_radius <= 8, f"fov_radius must be 1..8, got {self.fov_radius}"),
            (1 <= self.max_steps <= MAX_STEPS,
             f"max_steps must be 1..{MAX_STEPS}, got {self.max_steps}"),
            (0 <= self.vote_interval <= MAX_STEPS,
             f"vote_interval must be 0..{MAX_STEPS}, got {self.vote_interval}"),
            (self.oracle in ORACLE_LEVELS,
             f"oracle must be one of {', '.join(ORACLE_LEVELS)}, got {self.oracle!r}"),
            (0 <= self.kill_cooldown <= 500, f"kill_cooldown must be 0..500, got "
                                            f"{self.kill_cooldown}"),
            (0 <= self.button_calls <= 10, f"button_calls must be 0..10, got {self.button_calls}"),
            (self.pace in PACES, f"pace must be one of {', '.join(PACES)}, got {self.pace!r}"),
            (100 <= self.tick_ms <= 60_000, f"tick_ms must be 100..60000, got {self.tick_ms}"),
        )
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)

    def check_players(self, players: int) -> None:
        """A table's player count against this config: more crewmates than impostors (else the
        impostors have won before the first step), and three stations for every seat (a
        crewmate's tasks, an impostor's cover: the map does not depend on who is which)."""
        crew = players - self.impostors
        if not 1 <= players <= MAX_PLAYERS:
            raise ConfigError(f"socialgrid is played by 1..{MAX_PLAYERS} players, not {players}")
        if crew <= self.impostors:
            raise ConfigError(f"{players} players with {self.impostors} impostors leave "
                              f"{crew} crewmates: there must be more crewmates than impostors")
        room = mapgen.station_capacity(self.room_size, self.rows, self.cols)
        if 3 * players > room:
            raise ConfigError(f"{players} players need {3 * players} task stations (three "
                              f"each); a {self.room_size}x{self.room_size} {self.rows}x"
                              f"{self.cols} map holds {room}")


LEAGUE = SocialGridConfig()
NAVIGATION = SocialGridConfig(impostors=0, oracle="low")

PRESETS: dict[str, SocialGridConfig] = {
    # The Crew Elo league (spec §15): 5 crew + 2 impostors, oracle high, 2x2 rooms.
    "league-10x10": LEAGUE,
    "league-14x14": SocialGridConfig(room_size=14),
    # Q1 navigation (spec §16): 7 crewmates, no impostor, without and with the oracle.
    "navigation": NAVIGATION,
    "navigation-oracle": SocialGridConfig(impostors=0, oracle="high"),
    # Q3 complexity (spec §16): rooms 4/6/9/16 of 10x10, and room sizes 10/14/18 at 2x2.
    "rooms-4": NAVIGATION,
    "rooms-6": SocialGridConfig(impostors=0, oracle="low", rows=2, cols=3),
    "rooms-9": SocialGridConfig(impostors=0, oracle="low", rows=3, cols=3),
    "rooms-16": SocialGridConfig(impostors=0, oracle="low", rows=4, cols=4),
    "size-10": NAVIGATION,
    "size-14": SocialGridConfig(impostors=0, oracle="low", room_size=14),
    "size-18": SocialGridConfig(impostors=0, oracle="low", room_size=18),
    # People at a table: a step every second, whoever has not moved stands still.
    "people": SocialGridConfig(pace="tick", tick_ms=1000),
}
