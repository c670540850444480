"""Tests of SocialGrid's widgets."""
