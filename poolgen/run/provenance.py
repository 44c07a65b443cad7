"""Build provenance: one hash of the generator's own package folder, recorded in every manifest.

    files  = every regular file under the installed poolgen package folder, at any depth, except
             inside __pycache__ folders (source, package data such as the crossword word list, and
             any other file there), by path relative to that folder in POSIX form, sorted by the UTF-8
             bytes of the path
    digest = SHA-256("poolgen/code/v2" || for each file: len(path) || path || len(data) || data)
    links  = none: a symbolic link anywhere there (outside __pycache__ folders) is refused, no hash

with each length an 8-byte big-endian count of bytes and `path` UTF-8 (docs/provenance.md). The same
hash over a reviewed source tree (`python -m audit code-hash DIR/poolgen`, written again in
audit/provenance.py) tells an auditor whether a run was made by the code that was reviewed. (v1, of
runs made before, hashed the *.py files only: the word list could change under the same hash.)
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

import poolgen
from poolgen.errors import PoolgenError

LABEL = b"poolgen/code/v2"
ALGORITHM = ('SHA-256("poolgen/code/v2" || for each file but those in __pycache__ folders by sorted '
             "relative POSIX path: len(path) || path || len(bytes) || bytes), lengths 8-byte big-endian")


def package_folder() -> Path:
    return Path(poolgen.__file__).resolve().parent


def package_files(folder: Path) -> list[tuple[str, Path]]:
    """(relative POSIX path, file) of every regular file under `folder` outside __pycache__ folders,
    sorted by the path's UTF-8 bytes. A symbolic link anywhere there (to a file, a folder or nothing) is
    a PoolgenError naming the first by path: Python imports through one, and the hash follows none."""
    found, links = [], []
    for top, dirs, files in os.walk(folder):  # never into a linked folder: it is refused below
        here = Path(top)
        links += [here / n for n in (*dirs, *files) if os.path.islink(here / n)]
        dirs[:] = [d for d in dirs if d != "__pycache__"]  # caches: left out, links in them too
        found += [(p.relative_to(folder).as_posix(), p) for n in files if n != "__pycache__"
                  and (p := here / n).is_file() and not os.path.islink(p)]
    if links:
        first = min(links, key=lambda p: p.relative_to(folder).as_posix().encode("utf-8"))
        raise PoolgenError(f"{first}: a symbolic link in the package folder; the code hash follows none "
                           "(docs/provenance.md)")
    return sorted(found, key=lambda item: item[0].encode("utf-8"))


def code_digest(folder: Path) -> tuple[str, int]:
    """The code hash of the package in `folder` (hex) and the number of files it covers."""
    h = hashlib.sha256(LABEL)
    files = package_files(folder)
    for rel, path in files:
        name, data = rel.encode("utf-8"), path.read_bytes()
        h.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest(), len(files)


@cache
def code_entry() -> dict[str, Any]:
    """The manifest's `tool.code`: what the running generator's code hashes to."""
    digest, count = code_digest(package_folder())
    return {"algorithm": ALGORITHM, "sha256": digest, "files": count}
