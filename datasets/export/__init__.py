"""Exporters of trained models to the ONNX files that vision/ reads, with their metadata."""
