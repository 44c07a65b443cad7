"""The audit's errors: a check that fails, and input that cannot be used at all."""

from __future__ import annotations

from audit.checklist import Step


class VerificationError(Exception):
    """Step `step` of the checklist fails, for `reason` (one line)."""

    def __init__(self, step: Step, reason: str) -> None:
        super().__init__(f"step {step}: {reason}")
        self.step = step
        self.reason = reason


class UnusableInput(Exception):
    """The run folder, manifest, key, spec or seed file cannot be used: nothing can be checked (exit 2)."""


class MalformedProof(UnusableInput):
    """A ticket proof document that is not a proof (a field missing, of the wrong type, a hash not in hex,
    a row value with no encoding): nothing can be checked (exit 2, one line naming the file)."""


class InvalidProof(Exception):
    """A ticket proof does not show that the ticket belongs to the signed pool (the message says why)."""

