"""The auditor's verifier: proves a poolgen run from its files alone.

This package never imports `poolgen` (tests/test_audit_independence.py guards that): a verifier
that shares the generator's code would prove nothing. It re-implements, from the layout contracts
in specs/<game>.md, the rules that decide what each ticket pays.
"""

__version__ = "0.1.0"  # poolgen's: one distribution ships both (pyproject.toml)
