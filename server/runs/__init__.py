"""Headless runs: `parlor sim` and its workers, the league runner and each league, the maze solver.
May import engine, bots, server.wire, store, tables, net and reports; nothing of commands."""
