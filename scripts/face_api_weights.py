"""face-api's TinyFaceDetector weights read from its manifest and .bin, for the project's Python
tools: the ONNX export (scripts/export-tiny-face-onnx.py) and the PyTorch peer
(scripts/device/peer_torch.py). Dequantised as face-api, and pipeline/device/face_model.cpp,
do: value = q * scale + min.
"""
import json
import os
import sys

import numpy as np


def load_tensors(model_dir):
    """Every tensor of the manifest, dequantised, in the file's (TensorFlow) layout."""
    with open(os.path.join(model_dir, "tiny_face_detector_model-weights_manifest.json")) as f:
        manifest = json.load(f)
    tensors = {}
    for group in manifest:
        blob = b"".join(open(os.path.join(model_dir, p), "rb").read() for p in group["paths"])
        offset = 0
        for w in group["weights"]:
            count = int(np.prod(w["shape"]))
            q = w.get("quantization")
            dtype = {"uint8": np.uint8, "uint16": np.uint16, "float32": np.float32}[q["dtype"] if q else w["dtype"]]
            raw = np.frombuffer(blob, dtype=dtype, count=count, offset=offset)
            offset += raw.nbytes
            values = raw.astype(np.float64) * q["scale"] + q["min"] if q else raw
            tensors[w["name"]] = values.astype(np.float32).reshape(w["shape"])
        if offset != len(blob):
            sys.exit(f"model: {len(blob) - offset} bytes more than the manifest describes")
    return tensors
