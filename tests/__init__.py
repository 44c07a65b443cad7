"""poolgen's and audit's tests: tests/poolgen and tests/audit mirror the two packages folder by folder;
tests/agreement holds the two sides to one definition, tests/end_to_end runs whole games from the
command line, tests/boundary feeds the commands what the world may hand them. tests/support holds the
helpers modules share; tests/vectors and tests/assets the known answers and named inputs."""
