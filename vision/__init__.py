"""From a photo to the hand on the table, at run time. Needs only numpy, OpenCV, onnxruntime
and Pillow; never ultralytics or torch (those live in `datasets/`, for training).

  image.py        photo decoding (upright, bounded, at reduced scale when enough)
  recognition/    what is on the photo: tile finder, crop reader, glyph and stack readers
  layout/         where the tiles lie: the hand, its sets and its bonus tiles
  pipeline.py     photo in, tiles out (`TileReader`), and the layout of a photo file
  tileset/        a table's own tile set, learnt from a photo of it
  legibility.py,  hints when the tiles are too small (legibility) or blurred (sharpness)
  sharpness.py
  draw.py         the overlay of boxes and readings
  types.py        `Detections`, the boundary between the models and what follows
  boxes.py        arithmetic on xyxy boxes
  runtime.py      where the models are and what the environment changes (read at call time)
"""
