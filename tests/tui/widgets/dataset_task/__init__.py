"""Tests of the SocialMaze dataset tasks' widgets."""
