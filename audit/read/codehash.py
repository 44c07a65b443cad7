"""The texts a manifest's `tool.code.algorithm` may hold (docs/manifest.md, docs/provenance.md): step 5
holds the field to one of them (audit/read/fields.py), `python -m audit code-hash` prints them. Apart
from fields.py, whose spec readers are heavy, so that `audit code-hash` starts light."""

from __future__ import annotations

CODE_HASH = ('SHA-256("poolgen/code/v2" || for each file but those in __pycache__ folders by sorted '
             'relative POSIX path: len(path) || path || len(bytes) || bytes), lengths 8-byte big-endian')
CODE_HASH_V1 = ('SHA-256("poolgen/code/v1" || for each *.py file by sorted relative POSIX path: len(path) || '
                'path || len(bytes) || bytes), lengths 8-byte big-endian')  # runs made before v2
ALGORITHMS = {2: CODE_HASH, 1: CODE_HASH_V1}  # by the version of the code hash
