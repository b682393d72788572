"""Trainers (run in .venv-train, with torch or ultralytics): the tile finder (detector.py), the
crop reader (classifier.py), the glyph reader of flowers and seasons (glyphs.py) and the
stack classifier (stacking.py)."""
