#!/usr/bin/python3
"""The built-in detector, TinyFaceDetector, exported to ONNX from the same face-api weights
(issue 35), so one network runs both ways: in vidpipe's own kernels and in ONNX Runtime
(config/face-onnx.yaml). Debian's python3-onnx writes it; setup runs this.

  export-tiny-face-onnx.py [--weights assets/models/tiny_face_detector] [--size 416]
                           [--out assets/models/tiny_face_detector.onnx]

The layers are those of kernels/tiny_face/tiny_face_net.hpp: conv0 (3x3, no padding, leaky
0.1), five depthwise-separable layers, each after a 2x2 max-pool (TensorFlow's 'same': padding
after the input), a last pool of stride 1, and conv8 (1x1, 25 outputs: 5 anchors x box and
score). Input [N, 3, size, size] RGB, (pixel - mean) / 255; output [N, 25, cells, cells].
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from face_api_weights import load_tensors  # noqa: E402  (beside this script)

CHANNELS = [3, 16, 32, 64, 128, 256, 512]


def same_pool(name, source, size, stride, nodes):
    """A 2x2 max-pool with TensorFlow's 'same' padding: what the input lacks is added after it."""
    out = -(-size // stride)
    pad = max(0, (out - 1) * stride + 2 - size)
    nodes.append(helper.make_node("MaxPool", [source], [name], kernel_shape=[2, 2], strides=[stride, stride],
                                  pads=[0, 0, pad, pad]))
    return out


def build(tensors, size):
    inits, nodes = [], []

    def weight(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=np.float32), name))
        return name

    def leaky(source, name):
        nodes.append(helper.make_node("LeakyRelu", [source], [name], alpha=0.1))
        return name

    # TensorFlow keeps filters as [ky, kx, in, out]; ONNX as [out, in, ky, kx].
    w0 = weight("conv0_w", tensors["conv0/filters"].transpose(3, 2, 0, 1))
    b0 = weight("conv0_b", tensors["conv0/bias"])
    nodes.append(helper.make_node("Conv", ["image", w0, b0], ["conv0"], kernel_shape=[3, 3]))
    x, s = leaky("conv0", "conv0_act"), size - 2
    for layer in range(6):
        s = same_pool(f"pool{layer}", x, s, 1 if layer == 5 else 2, nodes)
        x = f"pool{layer}"
        if layer == 5:
            break
        p, c = f"conv{layer + 1}/", CHANNELS[layer + 1]
        dw = weight(f"conv{layer + 1}_dw", tensors[p + "depthwise_filter"].transpose(2, 3, 0, 1))
        nodes.append(helper.make_node("Conv", [x, dw], [f"dw{layer + 1}"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                      group=c))
        pw = weight(f"conv{layer + 1}_pw", tensors[p + "pointwise_filter"].transpose(3, 2, 0, 1))
        pb = weight(f"conv{layer + 1}_b", tensors[p + "bias"])
        nodes.append(helper.make_node("Conv", [f"dw{layer + 1}", pw, pb], [f"pw{layer + 1}"], kernel_shape=[1, 1]))
        x = leaky(f"pw{layer + 1}", f"conv{layer + 1}_act")
    w8 = weight("conv8_w", tensors["conv8/filters"].transpose(3, 2, 0, 1))
    b8 = weight("conv8_b", tensors["conv8/bias"])
    nodes.append(helper.make_node("Conv", [x, w8, b8], ["grid"], kernel_shape=[1, 1]))
    graph = helper.make_graph(
        nodes, "tiny_face_detector",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["N", 3, size, size])],
        [helper.make_tensor_value_info("grid", TensorProto.FLOAT, ["N", 25, s, s])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="vidpipe scripts/export-tiny-face-onnx.py")
    model.ir_version = 8  # what ONNX Runtime 1.29 and python3-onnx 1.12 both read
    onnx.checker.check_model(model)
    return model


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--weights", default="assets/models/tiny_face_detector")
    p.add_argument("--size", type=int, default=416)
    p.add_argument("--out", default="assets/models/tiny_face_detector.onnx")
    a = p.parse_args()
    onnx.save(build(load_tensors(a.weights), a.size), a.out)


if __name__ == "__main__":
    main()
