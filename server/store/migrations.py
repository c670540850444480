"""The store's schema, versioned: `MIGRATIONS[i]` brings version i to i + 1 (SQL statements
separated by ";"). A new version is one entry appended at the end; never change an old one."""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, identity TEXT NOT NULL
        UNIQUE, created REAL NOT NULL);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, env TEXT NOT NULL,
        rules_version TEXT NOT NULL, preset TEXT, config TEXT NOT NULL, seed INTEGER NOT NULL,
        started REAL NOT NULL, ended REAL, status TEXT NOT NULL DEFAULT 'running', reason TEXT,
        result TEXT, record TEXT);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id), identity TEXT NOT NULL,
        kind TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}', status TEXT, reward REAL,
        PRIMARY KEY (game_id, seat));
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
        seat INTEGER NOT NULL, step INTEGER NOT NULL, turn INTEGER, raw TEXT NOT NULL,
        outcome TEXT NOT NULL, error TEXT, latency_ms REAL, usage TEXT, raw_output TEXT,
        transcript TEXT, created REAL NOT NULL, PRIMARY KEY (game_id, idx));
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
        step INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, visible_to TEXT NOT NULL,
        PRIMARY KEY (game_id, seq));
    CREATE TABLE metrics (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER, name TEXT NOT NULL,
        value TEXT);
    CREATE INDEX metrics_game ON metrics(game_id);
    CREATE TABLE ratings (
        env TEXT NOT NULL, identity TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL, PRIMARY KEY (env, identity));
    CREATE TABLE rating_history (
        game_id INTEGER NOT NULL REFERENCES games(id), env TEXT NOT NULL,
        identity TEXT NOT NULL, mu_before REAL, sigma_before REAL, mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL);
    """,
    """
    CREATE TABLE bot_failures (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        step INTEGER NOT NULL, error TEXT NOT NULL, policy TEXT NOT NULL, transcript TEXT,
        created REAL NOT NULL);
    ALTER TABLE actions ADD COLUMN structured INTEGER NOT NULL DEFAULT 0;
    """,
    """
    ALTER TABLE players ADD COLUMN token_hash TEXT;
    """,
    # Contract v2: the MindGames error class and fatality of a rejected move, the env's clock.
    """
    ALTER TABLE actions ADD COLUMN category TEXT;
    ALTER TABLE actions ADD COLUMN fatal INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE events ADD COLUMN clock TEXT;
    """,
    # Issue 8: no second copy of the record (it is rebuilt from the rows; the hidden setup and
    # the abort reason get columns of their own); texts stored once (prompt templates); the
    # server process (instance) that runs a game, when several share the file; a game's metrics
    # in its games row as the env returns them (a row per metric was most of a game's rows),
    # with the view `metrics` giving queries the old row-per-metric shape.
    """
    ALTER TABLE games ADD COLUMN setup TEXT;
    ALTER TABLE games ADD COLUMN aborted TEXT;
    ALTER TABLE games ADD COLUMN instance TEXT;
    ALTER TABLE games ADD COLUMN metrics TEXT;
    UPDATE games SET setup = json_extract(record, '$.setup'),
        aborted = json_extract(record, '$.aborted') WHERE record IS NOT NULL;
    ALTER TABLE games DROP COLUMN record;
    UPDATE games SET metrics = json_object(
        'game', (SELECT json_group_object(name, json(value)) FROM metrics m
                 WHERE m.game_id = games.id AND m.seat IS NULL),
        'seats', (SELECT json_group_object(seat, json(values_)) FROM
                  (SELECT seat, json_group_object(name, json(value)) AS values_ FROM metrics m
                   WHERE m.game_id = games.id AND m.seat IS NOT NULL GROUP BY seat)))
        WHERE id IN (SELECT game_id FROM metrics);
    DROP TABLE metrics;
    CREATE VIEW metrics (game_id, seat, name, value) AS
        SELECT g.id, NULL, m.key, m.value FROM games g, json_each(g.metrics, '$.game') m
        UNION ALL
        SELECT g.id, CAST(s.key AS INTEGER), m.key, m.value
        FROM games g, json_each(g.metrics, '$.seats') s, json_each(s.value) m;
    CREATE TABLE texts (hash TEXT PRIMARY KEY, text TEXT NOT NULL) WITHOUT ROWID;
    """,
    # Issue 10: one person per look of a name (server/store/names.py's skeleton, unique; for the
    # people already here the oldest keeps a look several share, the others lose the name), and
    # table ids that never repeat (the last table number each server instance gave out, taken
    # from the games for the servers that ran before).
    """
    ALTER TABLE players ADD COLUMN skeleton TEXT;
    UPDATE players SET skeleton = name_skeleton(name) WHERE kind = 'human';
    UPDATE players SET skeleton = NULL WHERE id IN (
        SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY skeleton ORDER BY created, id)
                        AS r FROM players WHERE skeleton IS NOT NULL) WHERE r > 1);
    CREATE UNIQUE INDEX players_skeleton ON players(skeleton);
    CREATE TABLE table_numbers (instance TEXT PRIMARY KEY, last INTEGER NOT NULL);
    INSERT INTO table_numbers (instance, last)
        SELECT coalesce(instance, ''),
               max(CAST(substr(table_id, length(coalesce(instance || '.', '')) + 2) AS INTEGER))
        FROM games WHERE table_id GLOB coalesce(instance || '.', '') || 't[0-9]*'
        GROUP BY coalesce(instance, '');
    """,
    # Issue 10: host accounts (server/store/accounts.py): invite codes for an invite-only server and
    # the host's settings (the admin token's hash), hashes only.
    """
    CREATE TABLE invites (code_hash TEXT PRIMARY KEY, created REAL NOT NULL, note TEXT NOT NULL
                          DEFAULT '', used_by TEXT, used_at REAL);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """,
    # Issue 13: SocialMaze instances imported from files (server/store/instances.py), played by
    # id; a table copies the record into its config, so games never depend on these rows.
    """
    CREATE TABLE maze_instances (env TEXT NOT NULL, id TEXT NOT NULL,
                                 content_hash TEXT NOT NULL, record TEXT NOT NULL,
                                 summary TEXT NOT NULL DEFAULT '', source TEXT NOT NULL DEFAULT '',
                                 imported REAL NOT NULL, PRIMARY KEY (env, id)) WITHOUT ROWID;
    """,
    # Issue 21: a table's seed is 128 secret bits, past SQLite's 64-bit integers: every seed is
    # kept as the text of its decimal digits (readers convert it with int()).
    """
    ALTER TABLE games ADD COLUMN seed_digits TEXT NOT NULL DEFAULT '';
    UPDATE games SET seed_digits = CAST(seed AS TEXT);
    ALTER TABLE games DROP COLUMN seed;
    ALTER TABLE games RENAME COLUMN seed_digits TO seed;
    """,
    # Issue 21: an instance is known by its source and id (two release files share ids).
    """
    CREATE TABLE maze_instances_by_source (env TEXT NOT NULL, source TEXT NOT NULL,
                                           id TEXT NOT NULL, content_hash TEXT NOT NULL,
                                           record TEXT NOT NULL,
                                           summary TEXT NOT NULL DEFAULT '',
                                           imported REAL NOT NULL,
                                           PRIMARY KEY (env, source, id)) WITHOUT ROWID;
    INSERT INTO maze_instances_by_source (env, source, id, content_hash, record, summary,
                                          imported)
        SELECT env, source, id, content_hash, record, summary, imported FROM maze_instances;
    DROP TABLE maze_instances;
    ALTER TABLE maze_instances_by_source RENAME TO maze_instances;
    """,
    # Issue 21: names nobody used for a game are forgotten some days after their last hello
    # (`Store.forget_unused_names`; the index finds whether a player ever sat at a game). The
    # names already here count from the upgrade (their last hello was not kept); every claim
    # sets it.
    """
    ALTER TABLE players ADD COLUMN last_hello REAL;
    UPDATE players SET last_hello = (julianday('now') - 2440587.5) * 86400.0
        WHERE token_hash IS NOT NULL;
    CREATE INDEX seats_player ON seats(player_id);
    """,
    # Issue 22: people are rated beside bots. An env keeps ratings per scheme (SocialGrid: its
    # Crew Elo league, and TrueSkill over sides for the games Elo cannot rate), and each game
    # keeps why it was not rated. Until now only SocialGrid rated by Elo; games stored before
    # kept no reason.
    """
    CREATE TABLE ratings_by_scheme (
        env TEXT NOT NULL, scheme TEXT NOT NULL, identity TEXT NOT NULL, mu REAL NOT NULL,
        sigma REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL,
        PRIMARY KEY (env, scheme, identity));
    INSERT INTO ratings_by_scheme (env, scheme, identity, mu, sigma, games, updated)
        SELECT env, CASE env WHEN 'socialgrid' THEN 'elo' ELSE 'trueskill' END, identity, mu,
               sigma, games, updated FROM ratings;
    DROP TABLE ratings;
    ALTER TABLE ratings_by_scheme RENAME TO ratings;
    ALTER TABLE rating_history ADD COLUMN scheme TEXT NOT NULL DEFAULT 'trueskill';
    UPDATE rating_history SET scheme = 'elo' WHERE env = 'socialgrid';
    CREATE INDEX rating_history_game ON rating_history(game_id);
    ALTER TABLE games ADD COLUMN unrated TEXT;
    CREATE INDEX games_unrated ON games(env, id) WHERE unrated IS NOT NULL;
    UPDATE games SET unrated = 'not rated: the game is void' WHERE status = 'void';
    UPDATE games SET unrated = 'not rated (games stored before this version kept no reason)'
        WHERE status = 'finished'
        AND NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = games.id);
    """,
    # Issue 24: the AmongAgents interviewer's questions after the game (reflection), answered
    # by an LLM seat once its game is over; kept beside the game, never heard by another seat.
    """
    CREATE TABLE debriefs (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        transcript TEXT NOT NULL, usage TEXT, created REAL NOT NULL,
        PRIMARY KEY (game_id, seat));
    """,
    # Issue 26: people appear in exports and reports under a pseudonym (server/store/
    # pseudonyms.py), an HMAC under a key only this database holds; SQLite's randomblob is a
    # CSPRNG, so the key is drawn here and a read-only export finds it.
    """
    INSERT OR IGNORE INTO settings (key, value) VALUES ('pseudonym_key', hex(randomblob(32)));
    """,
    # Issue 26: study mode (server/store/study.py): every answer a person gave to a study's
    # consent text, with the text's sha256, the server's time and the demographics form's
    # answers; the latest answer per (identity, study) is the one that counts.
    """
    CREATE TABLE consents (
        id INTEGER PRIMARY KEY, identity TEXT NOT NULL, study TEXT NOT NULL,
        consent_hash TEXT NOT NULL, agreed INTEGER NOT NULL, answers TEXT,
        answered_at REAL NOT NULL);
    CREATE INDEX consents_person ON consents(identity, study, id);
    """,
    # Issue 27: a campaign's game (server/runs/campaign/): the campaign's id (a hash of its
    # manifest) and the game's key (a hash of what decides it: tag, env, preset, config, seed,
    # seats), so that a rerun, or another campaign holding the same game, skips it once it is
    # finished, and a merge knows one game played twice.
    """
    ALTER TABLE games ADD COLUMN campaign TEXT;
    ALTER TABLE games ADD COLUMN game_key TEXT;
    CREATE INDEX games_key ON games(game_key) WHERE game_key IS NOT NULL;
    """,
]
