"""A pinhole phone camera looking at the table (world units: cm, table plane z = 0).

World axes: x to the winner's right, y away from the winner (towards the table centre), z up.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    K: np.ndarray        # 3x3 intrinsics
    R: np.ndarray        # 3x3 world -> camera rotation
    C: np.ndarray        # camera centre in world
    width: int
    height: int

    @property
    def P(self) -> np.ndarray:
        return self.K @ np.hstack([self.R, (-self.R @ self.C)[:, None]])

    def project(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points (N,3) -> image points (N,2) and camera depth (N,)."""
        Xc = (X - self.C) @ self.R.T
        z = Xc[:, 2]
        uv = (Xc @ self.K.T)[:, :2] / np.maximum(z, 1e-6)[:, None]
        return uv, z

    def plane_homography(self, z0: float = 0.0) -> np.ndarray:
        """Homography from plane coordinates (x, y, 1) at height z0 to image pixels."""
        P = self.P
        return np.column_stack([P[:, 0], P[:, 1], P[:, 2] * z0 + P[:, 3]])

    def ray_to_plane(self, uv: np.ndarray, z0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Image points -> (world points on plane z0, mask of rays that hit it in front)."""
        d = np.column_stack([uv, np.ones(len(uv))]) @ np.linalg.inv(self.K).T @ self.R  # world directions
        t = (z0 - self.C[2]) / np.where(np.abs(d[:, 2]) < 1e-9, -1e-9, d[:, 2])
        return self.C + t[:, None] * d, t > 0

    def as_dict(self) -> dict:
        return {"K": self.K.round(3).tolist(), "R": self.R.round(6).tolist(), "C": self.C.round(3).tolist(),
                "width": self.width, "height": self.height}


def look_at(C: np.ndarray, target: np.ndarray, roll_deg: float) -> np.ndarray:
    """Rotation whose optical axis points from C to target; image x right, y down; then roll."""
    f = target - C
    f = f / np.linalg.norm(f)
    r = np.cross(f, np.array([0.0, 0.0, 1.0]))
    r = r / np.linalg.norm(r)
    d = np.cross(f, r)  # image down
    R = np.stack([r, d, f])
    a = np.deg2rad(roll_deg)
    Rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    return Rz @ R


def make_camera(width: int, height: int, focal_35mm: float, target: np.ndarray, distance: float,
                elevation_deg: float, azimuth_deg: float, roll_deg: float) -> Camera:
    """Elevation 90 = straight down; azimuth -90 = from the winner's side (tiles upright)."""
    f = focal_35mm / 36.0 * max(width, height)
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    e, a = np.deg2rad(elevation_deg), np.deg2rad(azimuth_deg)
    C = target + distance * np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    return Camera(K, look_at(C, target, roll_deg), C, width, height)
