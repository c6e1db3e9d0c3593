from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from gametape.events import Store

settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store")
