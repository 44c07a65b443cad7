"""poolgen/backoffice: the desk and its index, the claims and sales ledgers, reports; hostile inputs."""
