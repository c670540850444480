"""Codenames' widgets: the game, the board, the spymaster's clue box and the turn history."""
