"""Find the Spy baseline, reading only the seat's view (its own word and the descriptions):

- `scripted:describer`: describes its word truthfully with one of the hint phrases the word
  bank ships for it (a different one each round), never saying the word; then names the spy
  by word overlap: each other seat's descriptions are compared with its own word's hints, and
  it names the seat whose descriptions share the fewest words with them, or itself when most
  of the other seats' descriptions share nothing with them (its word is likely the odd one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.find_the_spy.words import hint_sentence, hints_of

ENV = "find-the-spy"
_WORD = re.compile(r"[a-z]+")
STOPWORDS = frozenset("""a an the and or of in on at to for with from by it its is are be
was were you your we our they their them this that these those as up down out into over under
than then there here when where what who how not no one some any very more most clue
something ordinary would recognise once people have seen up close know if saw used""".split())


def tokens(texts: Iterable[str]) -> set[str]:
    """Content words of `texts`: lower case, three letters or more, stop words left out."""
    return {w for t in texts for w in _WORD.findall(t.lower())
            if len(w) >= 3 and w not in STOPWORDS}


def description(word: str, round_: int) -> str:
    """A true, non-leaking sentence about `word` for round `round_` (1-based)."""
    return hint_sentence(word, round_)


def suspect(seat: int, word: str, descriptions: Iterable[Mapping[str, Any]],
            players: int) -> int:
    """The player (1-based) the overlap heuristic names as the spy."""
    mine = tokens(hints_of(word))
    said: dict[int, list[str]] = {s: [] for s in range(players) if s != seat}
    for d in descriptions:
        if d["seat"] in said:
            said[d["seat"]].append(d["text"])
    overlap = {s: len(tokens(texts) & mine) for s, texts in said.items()}
    fitting = sum(1 for v in overlap.values() if v > 0)
    if fitting * 2 < len(overlap):
        return seat + 1
    return min(overlap, key=lambda s: (overlap[s], s)) + 1


class DescriberBot(Bot):
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        pub, word, seat = view["public"], view["private"]["word"], view["seat"]
        if legal.get("kind") == "text":
            return Decision(action=description(word, pub["round"]))
        player = suspect(seat, word, pub["descriptions"], len(pub["players"]))
        return Decision(action=f"Final Answer: Player {player}")


register_scripted(ENV, "describer", "describes its word with the bank's hints; names the seat "
                                    "whose descriptions fit its word least, or itself")(
    lambda seed: DescriberBot())
