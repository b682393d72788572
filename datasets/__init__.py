"""Synthetic training data for the tile detector: tile art, scenes, labels (issue 4)."""
