"""A JPEG's scans counted from its markers, without decoding it.

A progressive JPEG is decoded scan by scan, each scan costing a pass over the whole image:
one scan repeated 20,000 times in 2 MB holds a decoder for minutes. Counting the SOS
markers first lets such a file be refused at once.
"""
from __future__ import annotations

import re

SOI, SOS, EOI = 0xD8, 0xDA, 0xD9
# markers that stand alone, without a length: the restart markers and TEM
_STANDALONE = frozenset(range(0xD0, 0xD8)) | {0x01}
# the end of a scan's entropy-coded data: 0xFF followed by anything but a stuffed 0x00, a
# restart marker or another fill byte
_NEXT_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def count_scans(data: bytes, stop: int) -> int:
    """The scans (SOS segments) of a JPEG's first image, counting no further than `stop`;
    a malformed stream is counted as far as it reads (the decoder then says what is wrong)."""
    pos, scans = 2, 0
    while pos + 4 <= len(data) and scans < stop:
        if data[pos] != 0xFF:
            break
        marker = data[pos + 1]
        if marker == 0xFF:  # a fill byte before a marker
            pos += 1
            continue
        if marker in (EOI, SOI):
            break
        if marker in _STANDALONE:
            pos += 2
            continue
        pos += 2 + int.from_bytes(data[pos + 2:pos + 4], "big")
        if marker == SOS:
            scans += 1
            found = _NEXT_MARKER.search(data, pos)
            if found is None:
                break
            pos = found.start()
    return scans
