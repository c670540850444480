"""Textual widgets, one per module."""
