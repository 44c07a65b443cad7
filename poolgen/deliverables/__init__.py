"""What a printed run delivers beyond its pool files: ticket identities on paper (barcode numbers,
validation numbers, book numbers), imaging and pack files for the printer, and validation files for
the central system (docs/validation.md). Every file that holds an outcome is a secret until the game
closes: created mode 0600 in a 0700 run folder.
"""
