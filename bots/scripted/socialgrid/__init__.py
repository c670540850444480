"""SocialGrid baselines: `scripted:crew` (walks to its tasks, reports bodies, votes on what it
saw), `scripted:impostor` (hunts lone crewmates, fakes tasks, frames crewmates at meetings),
`scripted:agent`, which plays whichever of the two its seat's role calls for (the one tables
and the league seat on "all seats of a side"), and `scripted:unassisted`, the agent without the
Planning Oracle's hints (the paper's oracle ablation, as a league model), and
`scripted:cautious`, the agent acting only on strong evidence (it votes only for a kill it saw;
as impostor it frames nobody and kills only where no crewmate came close lately): the paper's
"evidence scarcity" behaviour as a league model, beside the agent's weak-evidence votes.

Everything is read from the seat's view and legal space. What a view does not keep lives in the
seat's memory as one `Mind`. The modules:

- map_memory: the map memory (`GridMap`), distance fields to a goal (`Route`), path helpers;
- mind: `Mind`, what the seat saw and remembers (evidence for meetings), and its walking;
- crew / impostor: each side's steps and ballots;
- bot: `SocialGridBot`, which picks the side's logic and writes the ballot as the form asks.

Decisions cost 20-40 microseconds on average: a distance field (a few hundred microseconds on
the default map) is rebuilt a few dozen times per episode.
"""

from __future__ import annotations

from bots.registry import register_scripted
from bots.scripted.socialgrid.bot import SocialGridBot, ballot_action, seat_of
from bots.scripted.socialgrid.crew import crew_ballot, crew_step, crowded
from bots.scripted.socialgrid.impostor import fake_task, impostor_ballot, impostor_step
from bots.scripted.socialgrid.map_memory import GridMap, Route, front_of, manhattan
from bots.scripted.socialgrid.mind import Mind

ENV = "socialgrid"

register_scripted(ENV, "agent", "plays its seat's role: crew or impostor logic below")(
    lambda seed: SocialGridBot(seed))
register_scripted(ENV, "crew", "walks to its tasks (oracle or own map), reports bodies, votes "
                               "on what it saw")(lambda seed: SocialGridBot(seed, "crew"))
register_scripted(ENV, "impostor", "hunts lone crewmates, fakes tasks, frames crewmates at "
                                   "meetings")(lambda seed: SocialGridBot(seed, "impostor"))
register_scripted(ENV, "unassisted", "plays its seat's role like scripted:agent, never reading "
                                     "the oracle's hints")(
    lambda seed: SocialGridBot(seed, oracle=False, name="unassisted"))
register_scripted(ENV, "cautious", "acts only on strong evidence: votes only for a kill it saw; "
                                   "as impostor frames nobody, kills unwatched")(
    lambda seed: SocialGridBot(seed, name="cautious", cautious=True))

__all__ = [
    "ENV", "GridMap", "Mind", "Route", "SocialGridBot", "ballot_action", "crew_ballot",
    "crew_step", "crowded", "fake_task", "front_of", "impostor_ballot", "impostor_step",
    "manhattan", "seat_of",
]
