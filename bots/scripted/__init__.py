"""Scripted baselines, one module per env; importing this package registers them."""

from bots.scripted import colonel_blotto, three_player_ipd  # noqa: F401
