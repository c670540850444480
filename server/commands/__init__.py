"""The `parlor` command groups (server/cli.py assembles them): each group's parser beside its command.
May import anything in server, bots and engine, and tui.launch lazily; nothing imports it but server/cli.py."""
