"""The `parlor` command groups, each parser beside its command (server/cli.py assembles them).
May import any of engine, bots and server, tui.launch when run; only server/cli.py imports it."""
