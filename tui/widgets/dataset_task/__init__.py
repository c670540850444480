"""The SocialMaze dataset tasks' widgets (Rating Estimation, Review Decision, User
Profile): the game and the evidence by stage."""
