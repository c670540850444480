"""Tests of AmongAgents' widgets."""
