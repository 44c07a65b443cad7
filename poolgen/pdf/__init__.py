"""PDFs built with reportlab from a run folder: ticket proofs and the audit report.

Both are deterministic (reportlab's invariant mode, no clock, no OS randomness): the same run
folder and options give byte-identical PDFs.
"""

from poolgen.pdf.proofs import build_proofs, page_count
from poolgen.pdf.report.document import build_report
from poolgen.pdf.selection import default_selection, find_tickets
from poolgen.run.folder import RunFolder, open_run, spec_for

__all__ = ["RunFolder", "build_proofs", "build_report", "default_selection", "find_tickets",
           "open_run", "page_count", "spec_for"]
