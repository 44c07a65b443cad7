"""poolgen/pdf: the PDFs of `poolgen proof` and `poolgen report`, read back with pypdf."""
