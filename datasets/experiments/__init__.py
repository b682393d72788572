"""Tried and not shipped: kept runnable with their tests, used by no committed model."""
