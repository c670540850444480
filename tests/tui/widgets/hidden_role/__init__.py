"""Tests of Hidden Role Deduction's widgets."""
