"""SocialGrid's replay extras (docs/rules/socialgrid.md, "Replays"): the vote sessions, each
agent's trust over the votes, the bodies and the door toggles, each item at the frame positions
(indexes into the perspective's frames) where the perspective learnt of it.

Only what the perspective saw goes in. Meetings, ballots cast and vote results are public. The
ballots' trust scores and thoughts are seen by nobody during play: the omniscient perspective
has every voter's, a seat's perspective only its own (from its own decisions: what it sent),
never another's. Bodies come from the kills the perspective saw; doors from the step traces,
which only the omniscient perspective has."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.socialgrid import syntax
from engine.socialgrid.records import VoteRecord, ballot_votes
from engine.socialgrid.trust import trust_by_meeting
from server.replays.replay import Frame, Replay

ACCEPTED = ("ok", "defaulted")  # a decision that cast a ballot (a rejected one did not)


def _own_ballot(frame: Frame, seat: int, players: int) -> VoteRecord | None:
    """The seat's own ballot if it cast one at this frame (its decision and its `ballot_cast`)."""
    decision = frame.decision
    if decision is None or decision.seat != seat or decision.outcome not in ACCEPTED:
        return None
    cast = next((e for e in frame.events if e["type"] == "ballot_cast"
                 and e["data"].get("seat") == seat), None)
    if cast is None:
        return None
    try:
        ballot = syntax.parse_ballot(decision.raw, players)
    except syntax.AnswerError:
        return None
    meeting = cast["data"]["meeting"]
    return VoteRecord(cast["clock"].get("step", 0), meeting - 1, seat, ballot.target,
                      {s: t for s, t in ballot.trust.items() if s != seat}, ballot.thought)


def extras(replay: Replay, seat: int | None, frames: Sequence[Frame]) -> dict[str, Any]:
    players = replay.data["players"]
    sessions: dict[int, dict[str, Any]] = {}  # meeting number -> session
    votes: list[VoteRecord] = []
    bodies: list[dict[str, Any]] = []
    doors: list[list[Any]] = []
    for at, frame in enumerate(frames):
        if seat is not None:
            own = _own_ballot(frame, seat, players)
            votes += [own] if own is not None else []
        for e in frame.events:
            kind, data = e["type"], e["data"]
            if kind == "meeting_called":
                sessions[data["number"]] = _session(data, at)
                for body in bodies:
                    if body["until"] is None:
                        body["until"] = at
            elif kind == "vote_result" and data["meeting"] in sessions:
                session = sessions[data["meeting"]]
                session.update(at=at, tally=data["tally"], ejected=data["ejected"],
                               role=data.get("role"), role_announced="role" in data)
                session["ballots"] = [{"voter": int(v), "target": t, "reason": None,
                                       "trust": None}
                                      for v, t in sorted(data["votes"].items(),
                                                         key=lambda kv: int(kv[0]))]
            elif kind == "ballots" and seat is None:
                votes += ballot_votes(data)
            elif kind == "kill":
                bodies.append({"victim": data["victim"], "pos": data["at"], "from": at,
                               "until": None})
            elif kind == "trace":
                doors += [[at, row[8]["door"]] for row in data["seats"]
                          if len(row) > 8 and row[8].get("door")]
    _add_reasons(sessions, votes)
    return {"perspective": seat, "reasons": "all" if seat is None else "own",
            "sessions": [sessions[n] for n in sorted(sessions)],
            "trust": _trust(sessions, votes), "bodies": bodies, "doors": doors}


def _session(meeting: Mapping[str, Any], at: int) -> dict[str, Any]:
    return {"meeting": meeting["number"], "called_at": at, "at": None,
            "step": meeting["step"], "reason": meeting["reason"],
            "called_by": meeting["called_by"], "body": meeting["body"],
            "found_dead": list(meeting["found_dead"]), "ballots": [], "tally": {},
            "ejected": None, "role": None, "role_announced": False}


def _add_reasons(sessions: Mapping[int, dict[str, Any]], votes: Sequence[VoteRecord]) -> None:
    """Each ballot's stated reason and trust, where the perspective has them."""
    known = {(v.meeting + 1, v.voter): v for v in votes}
    for number, session in sessions.items():
        for ballot in session["ballots"]:
            vote = known.get((number, ballot["voter"]))
            if vote is not None:
                ballot["reason"] = vote.thought
                ballot["trust"] = {str(s): t for s, t in sorted(vote.trust.items())
                                   if s != vote.voter}


def _trust(sessions: Mapping[int, Mapping[str, Any]], votes: Sequence[VoteRecord]
           ) -> dict[str, dict[str, list[list[float]]]]:
    """voter -> rated seat -> [[position where the vote ended, trust], ...] in meeting order,
    over the votes that ended (engine/socialgrid/trust.py's series, placed in the replay)."""
    ended = {n: s["at"] for n, s in sessions.items() if s["at"] is not None}
    out: dict[str, dict[str, list[list[float]]]] = {}
    for voter in sorted({v.voter for v in votes}):
        series = {str(rated): [[ended[m + 1], t] for m, t in points if m + 1 in ended]
                  for rated, points in sorted(trust_by_meeting(votes, voter).items())}
        kept = {rated: points for rated, points in series.items() if points}
        if kept:
            out[str(voter)] = kept
    return out
