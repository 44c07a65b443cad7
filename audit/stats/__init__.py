"""Step 8 of the checklist: statistics on each pool (step.py runs them; tests.py holds the
statistical tests; layouts.py and styles.py the no-information features of each style)."""
