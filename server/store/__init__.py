"""What is kept on disk: the SQLite store and its migrations, transcripts, ratings, names, accounts, stored instances.
May import engine and server.wire; nothing of net, tables, runs, reports or commands."""
