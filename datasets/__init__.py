"""Data and measurement for the models, by stage: tile art (art/), synthetic scenes and crops
(synth/), the real photos' labels (real/), trainers (train/), ONNX exporters (export/),
evaluations (eval/) and what was tried and not shipped (experiments/). Nothing at run time
(vision/, app/, scoring/) imports this package; `classes` is the class list all stages share."""
