"""Colonel Blotto's widgets: the game, the allocation form and the round history."""
