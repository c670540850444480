"""The paper's four worked examples (spec socialmaze §3 test vectors) as instances."""

from __future__ import annotations

from engine.hidden_role.instance import Instance, Statement, counts_of
from engine.hidden_role.roles import parse_role, told_role

_INITIALS = {"I": "Investigator", "C": "Criminal", "R": "Rumormonger", "L": "Lunatic"}


def make(instance_id: str, deal: str, rounds: list[str], variant: str = "full") -> Instance:
    """`deal` is one role initial a seat ("ICLRII"); each round is "1-3n 2-6y ..." (speaker,
    target, y = "is the criminal", n = "is not")."""
    roles = tuple(parse_role(_INITIALS[c]) for c in deal)
    statements = []
    for t, text in enumerate(rounds, 1):
        for item in text.split():
            pair, claim = item[:-1], item[-1]
            speaker, target = (int(x) for x in pair.split("-"))
            statements.append(Statement(t, speaker, target, claim == "y"))
    return Instance(
        id=instance_id, variant=variant, n=len(roles), rounds=len(rounds),
        told=told_role(roles[0]), composition=counts_of(roles), roles=roles,
        statements=tuple(statements), answer=(roles.index(parse_role("Criminal")) + 1,
                                              roles[0].value))


# (id, deal, rounds separated by "|"): spec socialmaze §3 test vectors, figures 6, 14, 22, 30.
_VECTORS = [
    ("fig6", "ICLRII", "1-3n 2-6y 3-1y 4-6y 5-3n 6-1n | 1-3n 2-4y 3-5n 4-1y 5-6n 6-4n"
                       " | 1-4n 2-6y 3-6n 4-3n 5-4n 6-3n"),
    ("fig14", "CIIIRL", "1-3y 2-1y 3-4n 4-1y 5-2n 6-1n | 1-4n 2-4n 3-6n 4-1y 5-6y 6-4n"
                        " | 1-3n 2-5n 3-1y 4-5n 5-4y 6-1y"),
    ("fig22", "RLCIII", "1-2y 2-1y 3-2n 4-1n 5-6n 6-3y | 1-2n 2-5y 3-4y 4-1n 5-6n 6-4n"
                        " | 1-6y 2-3n 3-6y 4-2n 5-3y 6-2n"),
    ("fig30", "LCRIII", "1-3y 2-5y 3-2y 4-2y 5-4n 6-5n | 1-4n 2-6y 3-1n 4-1n 5-3n 6-2y"
                        " | 1-6y 2-4n 3-5y 4-6n 5-6n 6-4n"),
]
WORKED = {name: make(name, deal, rounds.split("|")) for name, deal, rounds in _VECTORS}
FIG6, FIG14, FIG22, FIG30 = (WORKED[k] for k in ("fig6", "fig14", "fig22", "fig30"))
