"""Scripted baselines, one module per env; each env names its module (`Env.scripted_bots`)."""
