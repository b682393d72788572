"""Measurements of the models and of the pipeline as the app runs them. Shared: the photo sets
with their truth (samples.py) and the scores (metrics.py); one module per question: the whole
reader (reader.py), the crop classifier (classifier.py), the glyph reader (glyphs.py), the
layout (layout.py), the hints' thresholds (size.py, sharpness.py), two runs compared
(compare.py) and the pipeline's time (timing.py)."""
from __future__ import annotations

import json
from pathlib import Path


def print_report(report: dict, path: Path | None = None) -> None:
    """A measure's figures on one JSON line, and indented into `path` when given."""
    print(json.dumps(report))
    if path:
        Path(path).write_text(json.dumps(report, indent=1) + "\n")
