"""Replay: cursors over a game's states (step, back, jump), frames as one seat saw them."""

from gametape.replay.cursor import Cursor, Frame, OutOfRange

__all__ = ["Cursor", "Frame", "OutOfRange"]
