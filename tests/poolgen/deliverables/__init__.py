"""poolgen/deliverables: barcodes and book numbers, validation files, sealing, roles."""
