"""Whole games from the command line, one module per game (check, generate, verify, prove, proof,
report), and random specs of every style from check to verify."""
