"""The replay screen's widgets (tui/screens/replay.py): one per file."""
