"""The verifier's checklist as data: the steps' titles, one step's result, the whole report.

audit/verify.py runs the steps (audit/steps_*.py) and fills a Report; the CLI and the audit report
print it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

TITLES = {1: "signature", 2: "files", 3: "completeness", 4: "layouts", 5: "figures",
          6: "merkle roots", 7: "reproduction", 8: "statistics", 9: "deliverables"}
SHOWN = 3  # examples quoted in a failure reason

__all__ = ["SHOWN", "TITLES", "Outcome", "Report", "StepResult"]

Outcome = tuple[str, str]  # (status, message): ("pass", what was checked) / ("fail" | "skip", why)


@dataclass
class StepResult:
    step: int
    title: str
    status: str = "pass"
    reasons: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    required: bool = True  # a step not asked for (step 7 without a seed file) may be skipped

    def add(self, status: str, message: str, where: str | None = None) -> None:
        text = f"{where}: {message}" if where else message
        if status == "pass":
            self.details.append(text)
            return
        self.reasons.append(text)
        if status == "fail" or self.status == "pass":
            self.status = status

    def to_json(self) -> dict:
        return {"step": self.step, "title": self.title, "status": self.status, "reasons": self.reasons,
                "details": self.details}


@dataclass
class Report:
    run: Path
    key_fingerprint: str | None
    steps: list[StepResult]

    @property
    def failed(self) -> list[int]:
        """Steps that failed, or were skipped although asked for."""
        return [s.step for s in self.steps if s.status == "fail" or (s.status == "skip" and s.required)]

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def step(self, number: int) -> StepResult:
        return self.steps[number - 1]

    def to_json(self) -> dict:
        return {"run": str(self.run), "public_key_fingerprint": self.key_fingerprint, "ok": self.ok,
                "failed_steps": self.failed, "steps": [s.to_json() for s in self.steps]}
