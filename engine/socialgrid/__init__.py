"""SocialGrid (Among Us in a text gridworld): the world kit so far; the game rules come later."""
