"""Our photo reading beside a peer's: PyPI `mahjong-detector` 0.0.6 (a one-stage riichi
detector) in its own virtual environment, on the same photos, runs interleaved.

    python -m datasets.eval.timing peer PHOTO... [--peer-python .venv-peer/bin/python]
        [--repeat 9] [--command]

In-process (default): after one warm-up read each, our `TileReader.read` and the peer's
`detect_tiles` read each photo in turn `--repeat` times (the peer in a worker process of its
own environment, fed one path a line); wall and CPU seconds of each read. `--command`: the
whole commands instead, `mahjong-lens detect PHOTO` against `python -m mahjong_detector PHOTO`,
CPU seconds (user + system) of each process. Ratios are ours / the peer's, of the medians:
under 1 we are faster. Set up the peer once:

    python -m venv .venv-peer && .venv-peer/bin/pip install mahjong-detector==0.0.6
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

PEER_PYTHON = Path(".venv-peer/bin/python")
# the peer's reader, one photo per line of stdin: wall and CPU seconds and tiles per line out
_WORKER = """
import sys, time
from mahjong_detector import detect_tiles
for line in sys.stdin:
    wall, cpu = time.perf_counter(), time.process_time()
    tiles = detect_tiles(line.rstrip("\\n"))
    print(time.perf_counter() - wall, time.process_time() - cpu, len(tiles), flush=True)
"""


class _Peer:
    """The peer's reader in a worker process of its own environment."""

    def __init__(self, python: Path) -> None:
        self.proc = subprocess.Popen([str(python), "-c", _WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def read(self, photo: Path) -> tuple[float, float, int]:
        self.proc.stdin.write(f"{photo}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the peer's worker stopped on {photo}")
        wall, cpu, tiles = line.split()
        return float(wall), float(cpu), int(tiles)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _ours(reader, photo: Path) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    found = reader.read(photo)
    return time.perf_counter() - wall, time.process_time() - cpu, len(found.detections)


def in_process(photos: list[Path], python: Path, repeat: int) -> list[dict]:
    """Per photo: median wall and CPU seconds of ours and the peer's, interleaved."""
    from vision.pipeline import TileReader
    reader, peer = TileReader(), _Peer(python)
    try:
        out = []
        for photo in photos:
            _ours(reader, photo), peer.read(photo)  # warm-up
            ours, theirs = [], []
            for k in range(repeat):  # who goes first alternates
                pair = (lambda: ours.append(_ours(reader, photo)), lambda: theirs.append(peer.read(photo)))
                for run in (pair if k % 2 == 0 else pair[::-1]):
                    run()
            out.append(_summary(photo, np.array(ours), np.array(theirs)))
        return out
    finally:
        peer.close()


def whole_command(photos: list[Path], python: Path, repeat: int) -> list[dict]:
    """Per photo: median CPU seconds of the two whole commands, interleaved; beside them, each
    interpreter's empty start (`-c pass`), which the command pays whatever it does (a
    development install's .pth files weigh on ours, a bare virtual environment's on none)."""
    from datasets.eval.timing import _cpu_seconds
    ours_cmd = [sys.executable, str(Path(sys.executable).with_name("mahjong-lens")), "detect"]
    peer_cmd = [str(python), "-m", "mahjong_detector"]
    empty = {"ours": [sys.executable, "-c", "pass"], "peer": [str(python), "-c", "pass"]}
    out = []
    for photo in photos:
        ours, theirs = [], []
        starts: dict[str, list[float]] = {key: [] for key in empty}
        for k in range(repeat):
            pair = ((ours, ours_cmd), (theirs, peer_cmd))
            for times, argv in (pair if k % 2 == 0 else pair[::-1]):
                wall = time.perf_counter()
                cpu = _cpu_seconds(argv + [str(photo)])
                times.append((time.perf_counter() - wall, cpu, 0))
            for key, argv in empty.items():
                starts[key].append(_cpu_seconds(argv))
        row = _summary(photo, np.array(ours), np.array(theirs))
        row.update({f"{key}_empty_start_cpu_s": round(float(np.median(v)), 4)
                    for key, v in starts.items()})
        print(f"  empty interpreter start: ours {row['ours_empty_start_cpu_s'] * 1000:.0f} ms "
              f"CPU, peer {row['peer_empty_start_cpu_s'] * 1000:.0f} ms")
        out.append(row)
    return out


def _summary(photo: Path, ours: np.ndarray, theirs: np.ndarray) -> dict:
    """Medians (wall, CPU) and the ratios ours / peer's, printed."""
    mine, peer = np.median(ours[:, :2], axis=0), np.median(theirs[:, :2], axis=0)
    row = {"photo": str(photo), "tiles": int(ours[0, 2]), "peer_tiles": int(theirs[0, 2]),
           "ours_wall_s": round(float(mine[0]), 4), "ours_cpu_s": round(float(mine[1]), 4),
           "peer_wall_s": round(float(peer[0]), 4), "peer_cpu_s": round(float(peer[1]), 4),
           "ratio_wall": round(float(mine[0] / peer[0]), 2), "ratio_cpu": round(float(mine[1] / peer[1]), 2),
           "runs": len(ours)}
    print(f"{photo.name}: ours {mine[0] * 1000:.0f} ms wall / {mine[1] * 1000:.0f} ms CPU, peer "
          f"{peer[0] * 1000:.0f} / {peer[1] * 1000:.0f} ms; ratio {row['ratio_wall']:.2f} wall, "
          f"{row['ratio_cpu']:.2f} CPU (median of {len(ours)}, tiles {row['tiles']} / "
          f"{row['peer_tiles']})")
    return row


def main(argv: list[str]) -> int:
    import argparse
    import json
    parser = argparse.ArgumentParser(prog="timing peer", description=__doc__.split("\n\n")[0])
    parser.add_argument("photos", type=Path, nargs="+")
    parser.add_argument("--peer-python", type=Path, default=PEER_PYTHON)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--command", action="store_true", help="time the whole commands")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not args.peer_python.is_file():
        raise SystemExit(f"no peer at {args.peer_python}: " + __doc__.rsplit("\n\n", 1)[-1].strip())
    run = whole_command if args.command else in_process
    out = run(args.photos, args.peer_python, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0
