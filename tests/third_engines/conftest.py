"""The small printed runs the press's and the central validation system's third engines are held to
(tests/support/printed_runs.py), each made once per session when a test first asks for it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.printed_runs import Made, make


@pytest.fixture(scope="session")
def printed_run(tmp_path_factory) -> Callable[[str], Made]:
    root = tmp_path_factory.mktemp("printed_runs")
    made: dict[str, Made] = {}

    def get(name: str) -> Made:
        if name not in made:
            made[name] = make(root, name)
        return made[name]

    return get
