"""Seat specs -> one spec per seat. A spec is plain ("human", "random", "openai:gpt-4o") and
fills the next free seat, or names a role or side ("impostor=SPEC", "crew=SPEC") and fills every
seat of that role or side, as the env deals roles from the table's seed."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Config, ConfigError, Env


class SeatingError(ValueError):
    """Specs that do not fill the table exactly; the message names the valid roles and sides."""


def split_spec(spec: str) -> tuple[str | None, str]:
    """("crew", "random") for "crew=random"; (None, spec) for a plain spec. A "=" inside an LLM
    spec's settings ("openai:gpt-4o?temperature=0") does not make it a role spec."""
    head, sep, tail = spec.partition("=")
    if sep and head and all(c.isalnum() or c in " _-" for c in head):
        return head.strip(), tail
    return None, spec


def resolve_seats(env: Env, config: Config, seed: int, specs: Sequence[str],
                  players: int | None = None) -> list[str]:
    """One spec per seat. `players` defaults to the number of specs when none names a role,
    else to the env's default player count."""
    split = [split_spec(s) for s in specs]
    by_role = [(r, s) for r, s in split if r is not None]
    if players is None:
        players = len(specs) if not by_role else env.default_players()
    if players not in env.players:
        raise ConfigError(f"{env.id} is played by {' or '.join(map(str, env.players))} players, "
                           f"not {players}: give one seat spec per player, or name roles "
                           f"(e.g. ROLE=SPEC)")
    env.check_players(players, config)  # the config's own rules (SocialGrid: crew, stations)
    if not by_role:
        if len(specs) != players:
            raise SeatingError(f"{env.id} with {players} players needs {players} seat specs, "
                               f"got {len(specs)}")
        return list(specs)
    roles = env.assign_roles(config, seed, players)
    seats: list[str | None] = [None] * players
    for role, spec in by_role:
        wanted = role.casefold()
        matched = [i for i, r in enumerate(roles)
                   if wanted in (r.name.casefold(), r.side.casefold())]
        if not matched:
            names = sorted({r.name for r in roles} | {r.side for r in roles})
            raise SeatingError(f"{env.id} has no role or side {role!r}; valid: "
                               f"{', '.join(names)}")
        for i in matched:
            if seats[i] is not None:
                raise SeatingError(f"seat {i} ({roles[i].name}) is named by two specs")
            seats[i] = spec
    plain = [s for r, s in split if r is None]
    filled = sum(s is not None for s in seats)
    if len(plain) != players - filled:
        raise SeatingError(f"{env.id} has {players} seats; the role specs fill {filled}, so "
                           f"{players - filled} plain specs are needed, got {len(plain)}")
    rest = iter(plain)
    return [s if s is not None else next(rest) for s in seats]
