"""What the world may hand the commands: bad and hostile specs, malformed run files and claims,
mutated inputs, damaged run folders, secret files and modes, interrupts. One line, never a traceback."""
