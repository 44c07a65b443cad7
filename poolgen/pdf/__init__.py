"""PDFs built with reportlab from a run folder: ticket proofs (`proofs`, faces in `faces/`, which
tickets in `selection`) and the audit report (`report/`).

Both are deterministic (reportlab's invariant mode, no clock, no OS randomness): the same run
folder and options give byte-identical PDFs.
"""
