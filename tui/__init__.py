"""Parlor's Textual terminal UI; talks to a server only through server.wire.protocol."""
