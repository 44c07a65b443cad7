"""Crossword: YOUR LETTERS and grids of listed words (docs/styles/crossword.md)."""
