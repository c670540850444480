"""Tests of Secret Mafia's widgets."""
