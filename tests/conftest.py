"""Test-wide settings and shared fixtures."""
import pytest


@pytest.fixture(autouse=True)
def detector_alone(monkeypatch):
    """Stub detectors in the tests say exactly which tiles a photo holds; the committed crop
    classifier would re-read those made-up pictures, and the stack classifier judge their
    pungs. Tests of these stages opt back in with `monkeypatch.delenv(...)` or by passing a
    refiner or a stack reader."""
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    monkeypatch.setenv("MAHJONG_LENS_STACKING", "none")
