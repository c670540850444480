"""Secret Mafia's widgets: the game, and its side panel and phase banner."""
