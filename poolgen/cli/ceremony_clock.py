"""The clock of `poolgen ceremony new`, `commit` and `reveal` (docs/ceremony.md): the computer's own, which
POOLGEN_TEST_NOW (a UTC time) replaces for tests and rehearsals with rounds already published only."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only
    from poolgen.seeds.ceremony import Ceremony

NOW_ENV = "POOLGEN_TEST_NOW"


def now() -> datetime:
    from poolgen.seeds.ceremony import parse_time  # lazy: start-up time

    told = os.environ.get(NOW_ENV)
    return parse_time(told, NOW_ENV) if told else datetime.now(UTC).replace(microsecond=0)


def rehearsal_only(ceremony: Ceremony) -> None:
    """POOLGEN_TEST_NOW sets the clock `new`, `commit` and `reveal` judge by, for tests and rehearsals with
    rounds already published; never for a ceremony whose round this computer's own clock has not yet seen come
    out (a real one), where it would let whoever sets it reveal late with an earlier time signed."""
    from poolgen.seeds.ceremony import utc_text  # lazy: start-up time

    told, real = os.environ.get(NOW_ENV), datetime.now(UTC).replace(microsecond=0)
    due = ceremony.chain.round_time(ceremony.round_number)
    if told and real < due:
        raise ceremony.refuse(f"{NOW_ENV} is set, but round {ceremony.round_number} is due {utc_text(due)}, "
                              f"after this computer's clock ({utc_text(real)}): a test clock is for "
                              "rehearsals with rounds already published, never a real ceremony's (unset it)")
