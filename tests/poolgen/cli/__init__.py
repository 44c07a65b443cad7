"""poolgen/cli: the `poolgen` commands, through typer's CliRunner or as real processes."""
