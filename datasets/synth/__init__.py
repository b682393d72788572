"""Synthetic photos of finished hands with labels: hands drawn (hands.py), placed on the table
(placement.py), seen by a camera (camera.py), rendered (render.py, tables.py, props.py,
photo.py) and written as scenes (scene.py, generate.py, batch.py); crops and glyph windows for
the reader's training drawn on the fly (crop_render.py, glyph_render.py).

    python -m datasets.synth --out DIR --count N --seed S    (datasets/synth/generate.py)
"""
