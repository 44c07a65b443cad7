"""Bingo: cards, CALLER'S NUMBERS and patterns with prizes (docs/styles/bingo.md); `patterns` reads the
listed patterns (a catalogue shape or the spec's own cell sets), `style` lays cards out."""
