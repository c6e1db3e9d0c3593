"""Formats from and to other tools (hanab.live JSON)."""
