"""Tests of audit/, folder by folder: written against audit alone; poolgen may build their inputs."""
