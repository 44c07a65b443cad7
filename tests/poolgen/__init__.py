"""Tests of poolgen/, folder by folder (a module's tests are test_<module>.py in its folder's mirror)."""
