"""The database a command opens: --db, else the default one, announced on stderr once it is
known to open."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from server.store.location import default_db, unusable


def database(args: argparse.Namespace) -> str:
    """The database this command uses (--db, else `default_db()`), announced on stderr once it
    is known to open; exit 2 with the reason in one line if it does not."""
    db = Path(args.db).expanduser() if args.db else default_db()
    args.db = str(db.absolute())
    problem = unusable(Path(args.db))
    if problem is not None:
        print(f"parlor: cannot open the database {args.db}: {problem}", file=sys.stderr,
              flush=True)
        raise SystemExit(2)
    print(f"Parlor database: {args.db}", file=sys.stderr, flush=True)
    return args.db
