"""What is read back from a database: each league's report, the SocialMaze report, the exports.
May import engine, server.wire and server.store; nothing of tables, net, runs or commands."""
