"""Tests of the TUI widgets: the shared ones here, each env's in a folder as in tui/widgets/."""
