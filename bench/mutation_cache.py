"""A pytest plugin for mutation runs of audit/ only: remember each pool poolgen builds.

The audit tests build full pools with `poolgen.build.build_pool` in their fixtures; mutmut runs every
mutant in a fresh pytest session, so each one would build the same pools again. When only audit/ is
mutated, poolgen is the unchanged code and a pool is a pure function of (spec, pool, seed), so the
table built once (in the session that records which tests reach which function, inherited by every
mutant's forked process) is the table every later build would give. Never used for the real suite,
nor when poolgen itself is mutated.
"""

from __future__ import annotations

import poolgen.build

_built: dict = {}
_build_pool = poolgen.build.build_pool


def build_pool(spec, pool, seed):
    key = (spec.path, spec.sha256, pool, bytes(seed))
    if key not in _built:
        _built[key] = _build_pool(spec, pool, seed)
    return _built[key].clone()


poolgen.build.build_pool = build_pool
