"""Suite-wide settings: property tests judge behaviour, never speed (no per-example deadline on a
loaded 2-core CI machine), and CI runs them derandomised so a run is reproducible."""

import os

import pytest
from hypothesis import settings

settings.register_profile("parlor", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("parlor")


@pytest.fixture(autouse=True)
def _private_parlor_home(tmp_path, monkeypatch):
    """Tokens the TUI saves go to a per-test folder, never to the user's ~/.config/parlor."""
    monkeypatch.setenv("PARLOR_HOME", str(tmp_path / "parlor-home"))
