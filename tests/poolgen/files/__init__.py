"""poolgen/files: the file and folder primitives (read.py, write.py)."""
