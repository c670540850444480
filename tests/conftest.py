"""Suite-wide settings: property tests judge behaviour, never speed (no per-example deadline on a
loaded 2-core CI machine), and CI runs them derandomised so a run is reproducible."""

import os

from hypothesis import settings

settings.register_profile("parlor", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("parlor")
