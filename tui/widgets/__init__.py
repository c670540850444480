"""Textual widgets: at this level those that screens and games share (the registry, the base and
generic game widgets, forms, logs, panels, plots); each env's own in tui/widgets/<its engine package>/,
its game widget in game.py."""
