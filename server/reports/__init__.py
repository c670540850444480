"""What is read back from a database: each league's report, the SocialMaze report and tables, the exports.
May import engine, server.wire and server.store; nothing of net, tables, runs or commands."""
