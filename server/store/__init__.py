"""What is kept on disk: the SQLite store, its migrations, transcripts, ratings, profiles, names,
accounts, pseudonyms, a study's consents (study.py) and forgetting a person (forget.py).
May import engine and server.wire; nothing of tables, net, runs, reports or commands."""
