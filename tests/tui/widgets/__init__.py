"""Tests of the TUI widgets, by env as in tui/widgets/."""
