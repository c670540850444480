"""The message schemas every client and the server share, and their JSON text.
Imports nothing of engine, bots or server outside server.wire (the TUI imports only this)."""
