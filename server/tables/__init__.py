"""A table and its game: the table driver, the one outbound choke point, seating and the host's bot policy.
May import engine, bots, server.wire and server.store; nothing of net, runs, reports or commands."""
