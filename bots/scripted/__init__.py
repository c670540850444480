"""Scripted baselines, one module per env; importing this package registers them."""
