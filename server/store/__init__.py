"""What is kept on disk: the SQLite store, its migrations, transcripts, ratings, profiles, names,
accounts.
May import engine and server.wire; nothing of tables, net, runs, reports or commands."""
