"""The verifier's checklist as data: its steps, one step's result, the whole report.

audit/verify.py runs the steps (audit/steps/, audit/stats/) and fills a Report; the CLI and the
audit report print it. A step is a `Step`, never a bare number or a list index: `Step.FIGURES` is
step 5, `report.step(Step.FIGURES)` its result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any


class Step(IntEnum):
    """The checklist's steps, in order; a step's value is its number in every report."""

    SIGNATURE = 1
    FILES = 2
    COMPLETENESS = 3
    LAYOUTS = 4
    FIGURES = 5
    MERKLE_ROOTS = 6
    REPRODUCTION = 7
    STATISTICS = 8
    DELIVERABLES = 9

    @property
    def title(self) -> str:
        """The step's name as reports print it ("merkle roots")."""
        return TITLES[self]


TITLES = {Step.SIGNATURE: "signature", Step.FILES: "files", Step.COMPLETENESS: "completeness",
          Step.LAYOUTS: "layouts", Step.FIGURES: "figures", Step.MERKLE_ROOTS: "merkle roots",
          Step.REPRODUCTION: "reproduction", Step.STATISTICS: "statistics", Step.DELIVERABLES: "deliverables"}
SHOWN = 3  # examples quoted in a failure reason

__all__ = ["SHOWN", "TITLES", "Outcome", "Report", "Step", "StepResult"]

Outcome = tuple[str, str]  # (status, message): ("pass", what was checked) / ("fail" | "skip", why)


@dataclass
class StepResult:
    step: Step
    title: str
    status: str = "pass"
    reasons: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    required: bool = True  # a step not asked for (step 7 without a seed file) may be skipped
    figures: list[dict[str, Any]] = field(default_factory=list)  # step 8: every test's numbers

    def add(self, status: str, message: str, where: str | None = None) -> None:
        text = f"{where}: {message}" if where else message
        if status == "pass":
            self.details.append(text)
            return
        self.reasons.append(text)
        if status == "fail" or self.status == "pass":
            self.status = status

    def to_json(self) -> dict[str, Any]:
        out = {"step": int(self.step), "title": self.title, "status": self.status, "reasons": self.reasons,
               "details": self.details}
        return out | ({"figures": self.figures} if self.figures else {})


@dataclass
class Report:
    run: Path
    key_fingerprint: str | None
    steps: list[StepResult]

    @property
    def failed(self) -> list[Step]:
        """Steps that failed, or were skipped although asked for."""
        return [s.step for s in self.steps if s.status == "fail" or (s.status == "skip" and s.required)]

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def step(self, step: Step | int) -> StepResult:
        """The result of `step` (a Step; a step's number reads the same)."""
        return next(s for s in self.steps if s.step == step)

    def to_json(self) -> dict[str, Any]:
        return {"run": str(self.run), "public_key_fingerprint": self.key_fingerprint, "ok": self.ok,
                "failed_steps": [int(s) for s in self.failed], "steps": [s.to_json() for s in self.steps]}
