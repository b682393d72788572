"""datasets/eval/timing_peer.py: the whole commands beside each interpreter's empty start."""
from pathlib import Path

import pytest

import datasets.eval.timing as timing
from datasets.eval.timing_peer import whole_command

# CPU seconds per kind of run: (ours, the peer's) commands and empty starts
CPU = {("detect", "ours"): 0.40, ("mahjong_detector", "peer"): 0.50,
       ("pass", "ours"): 0.03, ("pass", "peer"): 0.01}


@pytest.mark.parametrize("repeat", [1, 4])
def test_whole_command_reports_each_interpreters_empty_start(monkeypatch, repeat):
    peer = Path("/peer/bin/python")

    def cpu(argv):
        who = "peer" if argv[0] == str(peer) else "ours"
        what = next(word for word in ("detect", "mahjong_detector", "pass") if word in argv)
        return CPU[(what, who)]
    monkeypatch.setattr(timing, "_cpu_seconds", cpu)
    (row,) = whole_command([Path("photo.jpg")], peer, repeat)
    assert (row["ours_cpu_s"], row["peer_cpu_s"], row["ratio_cpu"]) == (0.4, 0.5, 0.8)
    assert (row["ours_empty_start_cpu_s"], row["peer_empty_start_cpu_s"]) == (0.03, 0.01)
    assert row["runs"] == repeat
