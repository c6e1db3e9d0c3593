"""The games: one package each, registered through the `gametape.games` entry points."""
