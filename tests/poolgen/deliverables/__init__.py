"""poolgen/deliverables: barcodes and book numbers, validation files, the desk, sealing, roles."""
