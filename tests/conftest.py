"""Test-wide settings."""
import pytest


@pytest.fixture(autouse=True)
def detector_alone(monkeypatch):
    """Stub detectors in the tests say exactly which tiles a photo holds; the committed crop
    classifier would re-read those made-up pictures. Tests of the second stage opt back in
    with `monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER")` or by passing a refiner."""
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
