"""What is on the photo: the tile finder (detector.py) with its second look at small tiles
(zoom.py), the crop reader (refine.py) with the glyph reader for flowers and seasons
(glyphs.py) and the limit of four copies (copies.py), and the stack classifier that spots a
kong's fourth tile (stacking.py). Each model is an ONNX file run on the CPU."""
