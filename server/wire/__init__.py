"""The protocol's message schemas and their JSON text: all the TUI imports of the server.
Imports nothing of engine, bots, tui or the rest of server."""
