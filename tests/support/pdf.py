"""The runs `poolgen proof` and `poolgen report` draw (one pool of each game), and reading their PDFs
back (pypdf)."""

from __future__ import annotations

import io
import json
import re
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


def glyphs(pdf: Path | bytes, page: int) -> list[tuple[int, str, float, float, float, float, float]]:
    """The page's drawn characters (pdfium): (index in the text, char, left, bottom, right, top, font
    size), spaces left out; the boxes are the glyphs' own, so two only meet where one is drawn over
    the other (or an italic pair kerns)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_raw

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else pdf.read_bytes())
    text = doc[page].get_textpage()
    out = []
    for k in range(text.count_chars()):
        char = text.get_text_range(k, 1)
        if char.strip():
            out.append((k, char, *text.get_charbox(k), pdfium_raw.FPDFText_GetFontSize(text.raw, k)))
    return out


def overlapping_glyphs(pdf: Path | bytes, page: int, slack: float = 0.5, largest: float = 40) -> list[str]:
    """Pairs of characters of the page drawn over each other (their boxes share more than `slack`
    points each way; neighbours in one string, as an italic 'Wi', and type above `largest` points,
    a SPECIMEN watermark, left out), as 'A over B' strings."""
    boxes = sorted((g for g in glyphs(pdf, page) if g[6] <= largest), key=lambda g: g[2])
    hits = []
    for i, (k1, a, l1, b1, r1, t1, _) in enumerate(boxes):
        for k2, b, l2, b2, r2, t2, _ in boxes[i + 1:]:
            if l2 > r1 - slack:
                break
            if abs(k1 - k2) > 1 and min(r1, r2) - max(l1, l2) > slack and min(t1, t2) - max(b1, b2) > slack:
                hits.append(f"{a} over {b} at ({l1:.0f}, {b1:.0f})")
    return hits


def type_sizes(pdf: Path | bytes, page: int, text: str) -> list[float]:
    """The font sizes the first occurrence of `text` (spaces aside) on the page is drawn at, one a
    character ([] if the page does not show it)."""
    drawn = glyphs(pdf, page)
    chars = "".join(g[1] for g in drawn)
    at = chars.find(text.replace(" ", ""))
    return [] if at < 0 else [round(g[6], 1) for g in drawn[at:at + len(text.replace(" ", ""))]]


def one_pool(folder: Path, spec: Path, tickets: int = 3000) -> Path:
    """A printed spec (specs/ or specs/examples/) cut to an order of one pool of about `tickets` (whole
    books), every tier's count scaled from its basis (at least 1), the fields of a larger order (a
    partial last pool, a split) and the published figures dropped; or an eInstant cut to pools of
    `tickets` shares (the order as many pools as before, counts scaled): written as folder/<name>.toml,
    a real game of its styles whose pool builds in a second."""
    text = spec.read_text()
    if re.search(r"^pool_shares = ", text, flags=re.M):
        pool = int(re.search(r"^pool_shares = (\d+)", text, flags=re.M)[1])  # type: ignore[index]
        order = int(re.search(r"^order_shares = (\d+)", text, flags=re.M)[1])  # type: ignore[index]
        text = re.sub(r"^pool_shares = \d+", f"pool_shares = {tickets}", text, flags=re.M)
        text = re.sub(r"^order_shares = \d+", f"order_shares = {order // pool * tickets}", text, flags=re.M)
        per = pool
    else:
        field = {k: int(re.search(rf"^{k} = (\d+)", text, flags=re.M)[1])  # type: ignore[index]
                 for k in ("order_tickets", "pool_tickets", "first_ticket", "last_ticket")}
        book = field["last_ticket"] - field["first_ticket"] + 1
        size = -(-tickets // book) * book
        per = field["pool_tickets"] if re.search(r'^counts_per = "pool"', text, flags=re.M) \
            else field["order_tickets"]
        text = re.sub(r"^(order_tickets|pool_tickets) = \d+", rf"\g<1> = {size}", text, flags=re.M)
        text = re.sub(r"^(last_pool|split|published_\w+|row_odds_rounding|winners|total_cost|odds) = .*\n",
                      "", text, flags=re.M)
        tickets = size
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m[1]) * tickets // per)}", text,
                  flags=re.M)
    path = folder / spec.name
    path.write_text(text)
    return path


def off_page(pdf: Path | bytes, page: int) -> list[str]:
    """The page's characters drawn past its edges (pdfium's glyph boxes), as 'X at (x, y)' strings."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else pdf.read_bytes())
    width, height = doc[page].get_size()
    return [f"{g[1]} at ({g[2]:.0f}, {g[3]:.0f})" for g in glyphs(pdf, page)
            if g[2] < 0 or g[3] < 0 or g[4] > width or g[5] > height]
