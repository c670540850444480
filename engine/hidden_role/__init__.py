"""Hidden Role Deduction (SocialMaze, seed 003): the rules kit — roles, instance generator, strict
solver, explanation, data formats and answer scoring. Importing it registers nothing; an env that
wraps it into a playable game is built on top."""
