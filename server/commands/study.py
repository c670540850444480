"""`parlor study consents`: each person's answer to a study's consent text and its form, by
pseudonym (a name only with --names)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from server.store.location import DB_HELP

COLUMNS = ("person", "study", "status", "consent_hash", "answered_at")


def add_parser(sub: Any) -> None:
    study = sub.add_parser("study", help="a study's records (parlor serve --study FILE)")
    tasks = study.add_subparsers(dest="study_command", required=True)
    consents = tasks.add_parser("consents", help="each person's latest answer to the consent "
                                                 "text, and their form answers, by pseudonym")
    consents.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    consents.add_argument("--study", default=None, metavar="NAME",
                          help="one study's answers (default: every study's)")
    consents.add_argument("--format", default="csv", choices=("csv", "json"))
    consents.add_argument("--names", action="store_true",
                          help="add each person's name (identifying: for the host's eyes)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import csv
    import json
    from datetime import UTC, datetime

    from server.commands.database import database
    from server.store import study
    from server.store.pseudonyms import pseudonym, pseudonym_key
    from server.store.store import Store

    conn = Store._connect(database(args))
    try:
        key = pseudonym_key(conn)
        rows = study.latest_answers(conn, args.study)
    finally:
        conn.close()
    out = []
    fields: list[str] = []
    for r in rows:
        answers = json.loads(r["answers"]) if r["answers"] else {}
        fields += [f for f in answers if f not in fields]
        row = {"person": pseudonym(key, r["identity"], r["study"]), "study": r["study"],
               "status": study.AGREED if r["agreed"] else study.DECLINED,
               "consent_hash": r["consent_hash"],
               "answered_at": datetime.fromtimestamp(r["answered_at"], UTC).isoformat(),
               "answers": answers}
        if args.names:
            row["name"] = r["name"]
        out.append(row)
    if args.format == "json":
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    header = [*COLUMNS, *(["name"] if args.names else []), *fields]
    writer = csv.writer(sys.stdout)
    writer.writerow(header)
    for row in out:
        writer.writerow([row.get(c, "") for c in header[:len(header) - len(fields)]] +
                        [row["answers"].get(f, "") for f in fields])
    return 0
