"""Learning a table's own tile set: taught from one photo of the set, and from every correction.

Every physical set draws its tiles its own way, and a table plays the whole night with one
set. A *tile set* keeps the crop reader's feature vectors of that set's own tiles, per class
(store.py); reading with it blends the reader's probabilities with how close each tile is to
those examples (reader.py); a class the set has no example of is read as before.

API for the page and the commands (all errors are `TileSetError`, a ValueError with one line):

Sets on disk (`data`: the data folder, as vision.runtime.data_dir: --data-dir,
$MAHJONG_LENS_DATA, ~/.mahjong-lens; the sets live in its `tilesets/`):
    check_name(name) -> str                       a name, never a path
    list_sets(data=None) -> list[SetSummary]      name, examples per class, last_taught, unseen, error
    load_set(name, data=None, probe=None) -> TileSet   damaged / other model: TileSetError
    delete_set(name, data=None)                   (at most MAX_SETS sets in a folder)
    forget_correction(name, read, code, data=None) -> int   a fix made by mistake

Teach from sheet photos (the page's teach flow: read, show each tile with its code, save):
    read_sheet(photos, codes_text, reader=None, ways=None) -> Sheet
        photos: paths or bytes; codes_text: `123456789m123456789p...12345678f`, rows may be
        separated by spaces or `/`. The codes go to the tiles by alignment
        (vision/tileset/teaching.py, align.py). Sheet.tiles[i]: photo, box
        (full-resolution pixels), code, read_as (the reader's reading without the set),
        doubt ("" when sure); Sheet.gaps (codes with no tile found), Sheet.extras (boxes
        that are no tile), Sheet.moved (rows found in another order than typed). A sheet
        is read the way it lies; WayInDoubt (a TileSetError) when two ways fit almost
        equally: `ways={photo: Way}` says which.
    Sheet.with_codes(codes, confirmed=()) -> Sheet   the player's codes ("" : no tile)
    Sheet.order_doubtful, Sheet.in_row_order()    codes typed in another order than laid
    save_sheet(sheet, name, data=None) -> TileSet stores Sheet.taught, creating the set

Learn from a hand added to the ledger, and undo it:
    learn_hand(name, rgb, boxes, codes, hand_id, data=None, refiner=None, corrected=None) -> int
        rgb: PhotoReading.photo.rgb; boxes in its pixels (detections.xyxy divided by
        photo.scale); codes: the final, corrected code of each box ('back' is skipped);
        corrected: which codes the player changed (only those are fixes learnt).
    learn_reading(name, reading, codes, hand_id, data=None, refiner=None, corrected=None) -> int
        the same from a vision.pipeline.PhotoReading and one final code per detection
    forget_hand(name, hand_id, data=None) -> int  removes exactly what that hand added

Read with a set:
    refiner_for(name | None, data=None) -> TaughtClassifier   pass as TileReader(refiner=...)
    reader_for(name | None, data=None, **TileReader kwargs) -> TileReader
A page that keeps one reader can build `TaughtClassifier(refiner.base, tileset)` per photo:
it shares the ONNX session (and is safe to share between threads). A damaged set, or one
taught with another model: catch TileSetError, say its one line, and read without a set
(the TileReader's default refiner).

Reading with a set costs one matrix-vector product per tile after the same ONNX calls. A
set file holds 8 examples per class at most (MAX_PER_CLASS), each kept at three sizes, as
cut and turned, in float16: a 42-tile sheet is under 1 MB, a full set about 6 MB.
"""
from vision.tileset.learn import (
    Extra,
    Gap,
    Sheet,
    SheetTile,
    WayInDoubt,
    forget_hand,
    hand_source,
    learn_hand,
    learn_reading,
    reader_for,
    read_sheet,
    refiner_for,
    save_sheet,
)
from vision.tileset.sheet import Way
from vision.tileset.reader import DEFAULT_BLEND, Blend, TaughtClassifier, taught_refiner
from vision.tileset.store import (
    MAX_PER_CLASS,
    MAX_SETS,
    SetSummary,
    TileSet,
    TileSetError,
    check_name,
    delete_set,
    forget_correction,
    list_sets,
    load_set,
    save_set,
)

__all__ = [
    "Blend", "DEFAULT_BLEND", "Extra", "Gap", "Way", "WayInDoubt", "MAX_PER_CLASS", "MAX_SETS", "SetSummary", "Sheet", "SheetTile",
    "TaughtClassifier", "TileSet", "TileSetError", "check_name", "delete_set",
    "forget_correction", "forget_hand",
    "hand_source", "learn_hand", "learn_reading", "list_sets", "load_set", "read_sheet",
    "reader_for", "refiner_for", "save_sheet", "save_set", "taught_refiner",
]
