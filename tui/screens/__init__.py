"""Screens, one per module."""
