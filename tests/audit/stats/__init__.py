"""audit/stats: step 8, its test functions and its findings on honest and biased pools."""
