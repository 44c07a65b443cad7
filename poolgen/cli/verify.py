"""`poolgen verify`: the auditor's checklist (audit/), which trusts only the public key and the files.

The command is audit's own (`python -m audit verify`): poolgen may call audit; audit never imports
poolgen.
"""

from __future__ import annotations

from audit.cli import verify

__all__ = ["verify"]
