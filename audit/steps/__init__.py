"""The checklist's steps (audit/checklist.py names them), one module per step or family of steps:
files (1, 2), identity and books (3), the per-pool steps (4 to 6), reproduction, ceremony and numbers
(7; numbers: a printed run's validation numbers from the seed, without a generator), deliverables (9).
Step 8 is audit/stats/."""
