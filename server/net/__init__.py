"""The websocket server: connections, the host's admin requests and tasks, limits, the serve process and its workers.
May import engine, bots, server.wire, server.tables and server.store; nothing of runs, reports or commands."""
