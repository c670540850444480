"""Tests of Codenames' widgets."""
