"""Parlor's game rules: pure Python, no I/O, no asyncio, no wall clock, no global random."""
