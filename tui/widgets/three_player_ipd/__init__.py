"""Three-player IPD's widgets: the game, the cooperate/defect toggles and the round history."""
