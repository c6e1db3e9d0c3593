"""Reading one game back, position by position: the cursor the replay viewer and the HTML
page step with (gametape.replay). Front-ends import it from here, as they import the store's
types from ``usecases.store``: they reach the layers below only through the use cases."""

from __future__ import annotations

from gametape.replay import Cursor, Frame, OutOfRange

__all__ = ["Cursor", "Frame", "OutOfRange"]
