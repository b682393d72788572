"""The real-photo measure of the second look: which tiles it tries, and a missing data folder."""
from __future__ import annotations

import numpy as np

from datasets.eval.look_real import inner, main


def test_the_tiles_tried_have_two_tiles_of_their_row_on_each_side():
    row = np.array([[40.0 * i, 0, 40.0 * i + 38, 50] for i in range(7)])
    two_rows = np.r_[row, row + [0, 60, 0, 60]]
    assert inner(row, 0) == [2, 3, 4]
    assert sorted(inner(two_rows, 0)) == [2, 3, 4, 9, 10, 11]
    assert len(inner(two_rows, 2)) == 2


def test_no_photos_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["--camerash", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
