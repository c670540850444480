"""The websocket server: connections, limits, the host's requests and tasks, serve and its workers.
May import engine, bots, server.wire, store and tables; nothing of runs, reports or commands."""
