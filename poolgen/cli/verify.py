"""`poolgen verify`: the auditor's checklist (audit/), which trusts only the public key and the files.

The command is audit's own (`python -m audit verify`), given poolgen's generator so that step 7
can regenerate the pools from the seed. poolgen may call audit; audit never imports poolgen.
"""

from __future__ import annotations

from audit.cli import verify_command
from poolgen.reproduce import regenerate

verify = verify_command(regenerate)

__all__ = ["verify"]
