"""Social Graph Analysis (SocialMaze, spec socialmaze §6): a pure rules kit — generator, union-find
solver, the four query types with their answer formats and scoring, and dataset files. Importing it
registers nothing; an environment wraps it separately."""
