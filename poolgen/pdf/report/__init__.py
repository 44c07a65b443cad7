"""The audit report PDF: the document (`document`), its text styles (`text`), prize tables per pool
(`pools`), charts (`charts`) and the statistics page (`statistics`)."""
