"""poolgen/loader: specs as they load (load.py, printed.py, einstant.py, bounds.py)."""
