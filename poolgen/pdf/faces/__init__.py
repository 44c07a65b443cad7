"""Ticket faces on proof pages: a game of play areas (`areas`), or a ticket-wide style's own face
(`<style>.py`), drawn with the primitives of `poolgen.pdf.draw`."""
