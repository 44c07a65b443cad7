"""The back office (docs/back-office.md): what a lottery needs after the run, for the months a game is on
sale. A reference implementation for acceptance tests and small operators, not a central system.

- errors.py    the one error (exit 2) and how an argument is shown in it
- tickets.py   a ticket named by its barcode number or its printed id, parsed strictly (ASCII digits)
- vouched.py   a run's validation files opened only as the signed manifest vouches for them
- index.py     a per-run SQLite index of a validation file, built once, checked against the manifest
- owned.py     SQLite files the tool creates and owns: exact schema, 0600, never in a run folder
- desk.py      the validation desk: a claim answered (and, with a ledger, paid at most once)
- claims.py    the claims ledger: every attempt, every payment, one transaction per claim
- sales.py     the eInstant sales ledger: the next share sold in serial order, voids, closing
- reports.py   prizes paid and remaining, reconciliation, the closing report
- share_reports.py  an eInstant's: prizes in shares sold and remaining, reconciliation, closing
- orders.py    the runs of one order made in several runs (cuts), reported as one
- books.py     the books ledger: each printed book's moves (activated, settled, returned, stolen)
- book_reports.py  prizes in returned and stolen books, payments made while a book was out of play
"""
