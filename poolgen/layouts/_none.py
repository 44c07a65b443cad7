"""Placeholder for a game whose layouts are not written yet: no layout columns."""
