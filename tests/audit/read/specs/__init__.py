"""audit/read/spec: the auditor's own reading of a spec (format 1 and 2, money)."""
