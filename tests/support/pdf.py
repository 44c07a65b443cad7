"""The runs `poolgen proof` and `poolgen report` draw (one pool of each game), and reading their PDFs
back (pypdf)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from pypdf import PdfReader

from tests.support import SEED_A, spec_path
from tests.support.cli import invoke


def pages(pdf: Path | bytes) -> list[str]:
    """Each page's text, whitespace runs (pypdf puts every table cell on a line) made one space."""
    data = pdf if isinstance(pdf, bytes) else pdf.read_bytes()
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]


# One pool of each game: (rules, pool id). The Happy Holidays run is signed, the others unsigned.
GAMES = {"happy_holidays": "p1", "wild_side": "p1", "hand_to_hand_tactics": "d1.00",
         "primetime_payout": "d2.00x3"}


class Runs:
    """Run folders (of GAMES: one pool of each game) built on first use, once per process."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seed = root / "run.seed"
        self.seed.write_text(SEED_A.hex() + "\n")
        self.seed.chmod(0o600)  # a seed file others may read is refused
        made = invoke("keys", "new", root / "keys")
        assert made.exit_code == 0, made.output
        self.public_key = root / "keys" / "signing-key.pub.pem"
        self.fingerprint = made.stdout.split("fingerprint:")[1].split()[0]
        self._built: dict[str, Path] = {}

    def __call__(self, rules: str) -> Path:
        if rules not in self._built:
            sign = (["--key", self.root / "keys" / "signing-key.pem"] if rules == "happy_holidays"
                    else ["--unsigned"])
            result = invoke("generate", spec_path(rules), "--out", self.root / "runs",
                            "--seed-file", self.seed, "--pool", GAMES[rules], "--run-id", rules,
                            "--workers", "1", *sign)
            assert result.exit_code == 0, result.output
            self._built[rules] = self.root / "runs" / rules
        return self._built[rules]


def manifest(run: Path) -> dict:
    """The run's manifest.json, as JSON."""
    return json.loads((run / "manifest.json").read_bytes())
