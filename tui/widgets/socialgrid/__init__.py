"""SocialGrid's widgets: the game, its map, side panel, ballot, keys and shared lines."""
