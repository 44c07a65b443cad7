"""Files in and out: the input boundary every file poolgen reads passes (`read`), writing so that
nothing is ever half-written (`write`), and clearing what a killed command left (`leftovers`)."""
