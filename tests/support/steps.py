"""Calling a step of the audit checklist directly (audit/steps/)."""

from __future__ import annotations

import pytest

from audit.errors import VerificationError


def fails_at(step: int, check, *args) -> str:
    """`check(*args)` fails with a VerificationError of step `step` (whoever reads it); its reason."""
    with pytest.raises(VerificationError) as info:
        check(*args)
    assert info.value.step == step
    return info.value.reason
