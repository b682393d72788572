"""Recognition at run time: photo decoding, the ONNX tile detector, the optional crop
classifier, layout of the table and overlays. Needs only numpy, OpenCV, onnxruntime and
Pillow; never ultralytics or torch (those live in `datasets/`, for training)."""
