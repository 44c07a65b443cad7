"""Third rules engines: each written from its style's contract (docs/styles/<style>.md and
docs/styles/play.md) alone, importing neither poolgen nor audit, and held against audit's step 4 on a
small run (the run itself is built and verified with poolgen and audit); and third readings of other
contracts the same way (the seed ceremony of docs/ceremony.md: ceremony.py and ceremony_bundles.py, held
against real ceremonies and audit's steps 5 and 7)."""
