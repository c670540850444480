"""`parlor ratings rebuild` and `parlor ratings fit`: the stored ratings recomputed from the
games (server/store/rating_rebuild.py), and ratings fitted over all of an env's games with
bootstrap intervals (server/reports/fitted_ratings.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from server.store.location import DB_HELP

POOLS = ("all", "people", "bots", "mixed")  # server.reports.comparison.POOLS
FORMATS = ("table", "csv", "json", "md")  # server.reports.tables.FORMATS


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "ratings", help="recompute the stored ratings, or fit ratings over all games",
        description="The ratings of a Parlor database: rebuild the live TrueSkill and Elo "
                    "ratings from the stored games, or fit Bradley–Terry / Plackett–Luce "
                    "ratings over every game of an env with bootstrap intervals.")
    commands = p.add_subparsers(dest="ratings_command", required=True, metavar="{rebuild,fit}")
    rebuild = commands.add_parser(
        "rebuild", help="recompute every stored rating from the games",
        description="Drop each env's stored ratings and rating history and rate its games "
                    "again in the order they ended, exactly as the server rated them live "
                    "(the same games: finished and rated then; the same numbers). One write "
                    "transaction: a server sharing the file waits for it.")
    rebuild.add_argument("--env", action="append", default=None, metavar="ENV",
                         help="only this env (repeatable; default: every env with games)")
    rebuild.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    fit = commands.add_parser(
        "fit", help="ratings fitted over all of an env's games, with 95%% intervals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
One fit over every stored game of ENV, independent of the order they were played (as
Chatbot Arena reports): Bradley-Terry for two sides, Plackett-Luce for more places
(e.g. the IPD's three players ranked by score).
- a side's strength is the mean of its players' (a bot on both sides cancels out);
  a draw (equal rewards) is half a win each, a tie among more places the mean
  over the orders it could have finished in; a weak prior keeps an unbeaten
  player's rating finite
- rating = 1000 + 400/ln(10) * strength, the pool's mean at 1000
- 95% interval: percentiles over bootstrap resamples of the games (seeded)
- games: those that say something of the player (not self-play, nor the lobby's
  bot beside each of two people, which cancels out); * provisional: under 10
- void games (provider or server failure) and the host's one-address rule are
  never fitted; people are shown by pseudonym unless --names
The database is opened read-only: safe beside a running server.""")
    fit.add_argument("env", metavar="ENV", help="environment id (see `parlor envs`)")
    fit.add_argument("--pool", default="all", choices=POOLS,
                     help="games of people only, bots only, both at one table, or all "
                          "(default): each pool is fitted apart, on its own scale")
    fit.add_argument("--format", default="table", choices=FORMATS, help="output (default table)")
    fit.add_argument("--resamples", type=int, default=200, metavar="N",
                     help="bootstrap resamples (default 200)")
    fit.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    fit.add_argument("--names", action="store_true",
                     help="show people's names instead of their pseudonyms")
    fit.add_argument("--study", default="", metavar="NAME",
                     help="people's pseudonyms are this study's (as `parlor study consents --study NAME` "
                          "and `parlor export --study NAME` give them; default: the database's own)")
    fit.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.ratings_command == "rebuild":
        return _rebuild(args)
    return _fit(args)


def _known_env(env: str) -> str | None:
    """Why `env` is no env id, or None."""
    from engine.registry import env_ids

    if env in env_ids():
        return None
    return f"unknown environment {env!r}; environments: {', '.join(env_ids())}"


def _rebuild(args: argparse.Namespace) -> int:
    from engine.registry import get
    from server.reports.export import database as find_database
    from server.reports.outfile import Refused
    from server.store.rating_rebuild import rebuild
    from server.store.store import Store

    try:
        for env in args.env or ():
            if (problem := _known_env(env)) is not None:
                raise Refused(problem)
        db = find_database(getattr(args, "db", None))  # never creates one
    except Refused as e:
        print(f"parlor ratings rebuild: {e}", file=sys.stderr)
        return 2
    print(f"Parlor database: {db}", file=sys.stderr)

    async def go() -> list[Any]:
        store = await Store.open(db)
        try:
            envs = args.env or [r[0] for r in await store.fetch(
                "SELECT DISTINCT env FROM games ORDER BY env")]
            known = [e for e in envs if _known_env(e) is None]
            for env in envs:
                if env not in known:
                    print(f"parlor ratings rebuild: {env}: left alone (no such environment in "
                          f"this Parlor)", file=sys.stderr)
            schemes = {env: get(env).rating for env in known}
            return await store.write(lambda c: rebuild(c, schemes))
        finally:
            await store.close()

    for done in asyncio.run(go()):
        print(f"{done.env}: {done.games} games rated, {done.identities} ratings")
    return 0


def _fit(args: argparse.Namespace) -> int:
    from server.reports.export import connect
    from server.reports.export import database as find_database
    from server.reports.fitted_ratings import NotFitted, fitted_ratings, render_fit
    from server.reports.outfile import Refused, write_out
    from server.store.pseudonyms import PseudonymKeyMissing

    problem = _known_env(args.env)
    if problem is None and args.resamples < 0:
        problem = "--resamples must be 0 or more"
    if problem is not None:
        print(f"parlor ratings fit: {problem}", file=sys.stderr)
        return 2
    try:
        conn = connect(find_database(getattr(args, "db", None)))
    except Refused as e:
        print(f"parlor ratings fit: {e}", file=sys.stderr)
        return 2
    try:
        fit = fitted_ratings(conn, args.env, args.pool, resamples=args.resamples,
                             seed=args.seed, names=args.names,
                             study=args.study)
    except (NotFitted, PseudonymKeyMissing) as e:
        print(f"parlor ratings fit: {e}", file=sys.stderr)
        return 2
    finally:
        conn.close()
    text = render_fit(fit, args.format) + "\n"
    return 0 if write_out(None, lambda stream: stream.write(text)) else 141  # 141: `| head`
