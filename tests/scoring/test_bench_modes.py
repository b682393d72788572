"""scripts/bench_mcr.py's Classical and batch modes run and report a rate (a few hands)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mode, unit", [("--classical", "hands/s"), ("--batch", "lines/s")])
def test_bench_mode_reports_a_rate(mode, unit):
    done = subprocess.run([sys.executable, "-m", "scripts.bench_mcr", mode, "--count", "30",
                           "--rounds", "1"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rate = re.search(rf"(\d+) {unit} \(median round\)", done.stdout)
    assert rate and int(rate.group(1)) > 0, done.stdout


def test_bench_counts_bytecodes_per_hand():
    done = subprocess.run([sys.executable, "-m", "scripts.bench_mcr", "--bytecodes", "--count", "30"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    counted = re.search(r"(\d+) bytecodes a hand, ([\d.]+) Python calls", done.stdout)
    assert counted and int(counted.group(1)) > 100 and float(counted.group(2)) > 10, done.stdout
