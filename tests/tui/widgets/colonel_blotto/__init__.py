"""Tests of Colonel Blotto's widgets."""
