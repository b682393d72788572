"""The page's own arguments (`streamlit run app/page.py -- --data-dir DIR`, which
`mahjong-lens app` passes on): read in one place, for every page that needs them."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.ledger import data_dir


def page_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The page's arguments in `argv` (default: the process's); Streamlit's own are left."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--data-dir", default=None)
    return parser.parse_known_args(sys.argv[1:] if argv is None else argv)[0]


def data_folder(argv: list[str] | None = None) -> Path:
    """The data folder the page was started with: the ledger and the taught tile sets."""
    return data_dir(page_args(argv).data_dir)
