"""Campaigns: a manifest of games written before anything runs (`manifest.py`), played by one
runner (`runner.py`) in this process, in `--workers` processes or over a Ray cluster
(`ray_backend.py`), finished games recorded atomically and skipped on a rerun. Every league and
`parlor campaign` play through it."""
