"""A table and its game: the table driver, the outbound choke point, seating, the bot policy.
May import engine, bots, server.wire and server.store; nothing of net, runs, reports, commands."""
