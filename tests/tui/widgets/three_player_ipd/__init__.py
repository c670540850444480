"""Tests of three-player IPD's widgets."""
