"""The real Camerash photos as labelled data: boxes found for their crops (camerash_boxes.py,
committed as camerash_boxes.json), every tile boxed for training (camerash_train.py), and
labelled crops cut from photos on disk, real or synthetic (crop_sources.py)."""
