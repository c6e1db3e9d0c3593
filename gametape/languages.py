"""The languages gametape speaks, each by its own name, and those written right to left."""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES: Mapping[str, str] = {"en": "English", "fa": "فارسی", "hu": "magyar"}
RTL = frozenset({"fa"})
# The pseudo-language (a private-use code): every word from a catalogue accented and made
# 40% longer, whatever a person typed marked ⟦…⟧, so any plain English left on a screen or
# a page came from no catalogue. Chosen only by name (``--lang qps``, ``?lang=qps``), for
# whoever checks their words (a plug-in author, the tests); never offered.
PSEUDO = "qps"
SPOKEN = frozenset({*LANGUAGES, PSEUDO})
