"""Codenames (MindGames, seed 004): registers `codenames`. The bank of words (words.txt) and the
association groups the scripted bots use (associations.json) are our own data files here."""

from engine.codenames.actions import Clue, Guess, Pass
from engine.codenames.config import CodenamesConfig
from engine.codenames.env import CodenamesEnv
from engine.codenames.rules import CodenamesGame
from engine.registry import register

register(CodenamesEnv())

__all__ = ["Clue", "CodenamesConfig", "CodenamesEnv", "CodenamesGame", "Guess", "Pass"]
