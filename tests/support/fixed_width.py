"""Reading fixed-width records (`poolgen imaging export --format fixed`) back by their layout file, by
docs/validation.md section 4's rules alone (no poolgen code)."""

from __future__ import annotations

import polars as pl


def parse(data: bytes, layout: bytes) -> pl.DataFrame:
    """Fixed-width records read back by their layout file, by docs/validation.md's rules alone."""
    rows = layout.decode("ascii").splitlines()
    assert rows[0] == "field,start,end,width,type"
    fields = [(name, int(a), int(b), int(w), t) for name, a, b, w, t in (r.split(",") for r in rows[1:])]
    text = data.decode("iso8859_15")  # ASCII, and a game's currency sign (£ 0xA3, € 0xA4) one byte
    length = fields[-1][2]
    assert len(text) % (length + 1) == 0
    lines = [text[i:i + length + 1] for i in range(0, len(text), length + 1)]
    assert all(line.endswith("\n") and "\n" not in line[:-1] for line in lines)  # every record: L + LF

    def value(field: str, kind: str) -> str:
        if kind == "N":
            assert field.isdigit()
            return str(int(field))
        if kind == "D":
            assert field.isdigit()
            return field
        assert kind == "A"
        return field.rstrip(" ")

    return pl.DataFrame({name: [value(line[a - 1:b], t) for line in lines]
                         for name, a, b, _, t in fields}, schema={f[0]: pl.String for f in fields})
