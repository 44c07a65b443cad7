"""poolgen/check: `poolgen check`'s figures against what the regulation prints."""
