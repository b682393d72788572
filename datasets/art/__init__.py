"""Extractors of installable tile art (one module per kind of source, see artwork.md §2) and
the atlas format they all write: `<cache>/<design>/faces.npy` (42 faces, RGB, FACE_H x FACE_W)
plus `meta.json` (which classes are present, realism, licence, face background colour)."""
