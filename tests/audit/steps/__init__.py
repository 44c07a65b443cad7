"""audit/steps: the checklist's steps, one test module per step module (files: 1 and 2; identity:
3; layouts: 4; figures: 5; ceremony: 7; deliverables: 9). Step 8 is tests/audit/stats."""
