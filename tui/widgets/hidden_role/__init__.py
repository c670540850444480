"""Hidden Role Deduction's widgets: the game and the statements table."""
