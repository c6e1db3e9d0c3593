"""The languages gametape speaks, each by its own name, and those written right to left."""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES: Mapping[str, str] = {"en": "English", "fa": "فارسی", "hu": "magyar"}
RTL = frozenset({"fa"})
