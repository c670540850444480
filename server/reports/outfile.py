"""Where a command's `--out FILE [--force]` output goes: '-' is stdout, anything else a file that
is checked before any work is done and written to FILE.part, renamed to FILE at the end, so a
stopped run leaves no half file under FILE. Used by `parlor export` and `parlor maze generate`.
A command that writes a folder (`parlor export --format games actions --out DIR`) does the same
with DIR.part.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


class Refused(Exception):
    """Bad input: the message names the problem and the valid choices."""


def out_path(out: str, force: bool, example: str, forbidden: Path | None = None,
             forbidden_is: str = "an input of the command") -> Path | None:
    """The file `--out OUT` names (absolute), or None for stdout ('-'). Refused when it is a
    folder (suggesting OUT/`example`), exists without `force`, is in no folder, or is
    `forbidden` (which is `forbidden_is`, e.g. "the database itself")."""
    if out == "-":
        return None
    path = Path(out).expanduser().absolute()
    if forbidden is not None and path == forbidden:
        raise Refused(f"--out {out} is {forbidden_is}; name another file")
    if path.is_dir():
        raise Refused(f"--out {out} is a folder; name a file in it (e.g. {out}/{example})")
    if path.exists() and not force:
        raise Refused(f"--out {out} exists; choose another file or add --force to overwrite it")
    if not path.parent.is_dir():
        raise Refused(f"--out {out}: no folder {path.parent}")
    return path


def write_out(out: Path | None, write: Callable[[IO[str]], Any]) -> bool:
    """`write(stream)` to stdout (out None) or to out, by way of out.part. False when stdout's
    reader closed it early (e.g. `| head`): nothing more should be printed."""
    if out is None:
        try:
            write(sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            # No more output; keep Python from complaining when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return False
        return True
    part = out.with_name(out.name + ".part")
    try:
        with part.open("w", encoding="utf-8") as stream:
            write(stream)
        os.replace(part, out)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return True


def out_dir(out: str, force: bool, forbidden: Path | None = None,
            forbidden_is: str = "an input of the command") -> Path:
    """The folder `--out OUT` names (absolute), for a command that writes a directory. Refused
    when it is a file, a folder with something in it (unless `force`: it is replaced), in no
    folder, or `forbidden`."""
    path = Path(out).expanduser().absolute()
    if forbidden is not None and path == forbidden:
        raise Refused(f"--out {out} is {forbidden_is}; name a new folder")
    if path.exists() and not path.is_dir():
        raise Refused(f"--out {out} is a file; name a folder for the dataset (a new one, or "
                      f"an empty one)")
    if path.is_dir() and any(path.iterdir()) and not force:
        raise Refused(f"--out {out} is a folder with files in it; choose a new folder or add "
                      f"--force to replace it")
    if not path.parent.is_dir():
        raise Refused(f"--out {out}: no folder {path.parent}")
    return path


def write_dir(out: Path, write: Callable[[Path], Any]) -> None:
    """`write(folder)` into out.part (a folder it makes), then put it in out's place (an old
    `out` is removed only once the new one is whole), so a stopped run leaves no half folder
    under out."""
    part = out.with_name(out.name + ".part")
    old = out.with_name(out.name + ".old")
    for leftover in (part, old):  # from a run that was killed
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        write(part)
        if out.is_dir() and any(out.iterdir()):
            os.replace(out, old)
        os.replace(part, out)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        if old.exists() and not out.exists():  # put the old one back
            os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)
