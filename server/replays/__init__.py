"""Replays of stored games (docs/replays.md): rebuilt from seed and actions, checked against the
stored events, seen from one seat or from everywhere, saved as a self-contained file. May import
engine, server.wire and server.store; nothing of tables, net, runs, reports or commands."""
