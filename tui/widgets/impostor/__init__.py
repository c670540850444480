"""The Impostor game's widget: your word, the descriptions in speaking order, the description
line with its live warning, the ballot and the reveal."""
