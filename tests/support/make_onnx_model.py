#!/usr/bin/python3
"""Small ONNX models with known answers for the tests (Debian's python3-onnx writes them).

  make_onnx_model.py OUT [--layout nchw|nhwc] [--size HxW | --size open] [--batch N|open]
                         [--input-type float|uint8] [--rank 4|3] [--inputs 1|2] [--opset N]
                         [--head yolo]

The model is one 1x1 convolution of the image's three channels into two: out[0] is their
mean, out[1] is the first less the third (R - B for RGB), so a test knows every output value.
An NHWC model transposes to NCHW first and its output back; with two inputs the second
scales the result. A rank-3 or uint8 image, which no convolution takes, is cast to float
and is the output: such models load, and vidpipe must refuse them itself.
With --head yolo the output is instead a fixed YOLO head [N, 4+3, 8] (YOLO_HEAD: one box of
class 2 at 0.9, the other anchors under any threshold), whatever the image.
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


# The YOLO head's anchors (cx, cy, w, h in input pixels, three class scores): anchor 0 is
# the one box, of class 2; the others score 0.05 at most.
YOLO_HEAD = [[32, 24, 16, 8, 0.1, 0.2, 0.9]] + [[8 * k, 8, 4, 4, 0.05, 0.01, 0.02] for k in range(1, 8)]


def yolo_head_nodes():
    """image -> head [N, 7, 8]: the batch's size taken from the image, the values constant."""
    head = np.array(YOLO_HEAD, dtype=np.float32).T.reshape(1, 7, 8)
    nodes = [
        helper.make_node("ReduceMean", ["image"], ["mean"], axes=[1, 2, 3], keepdims=1),
        helper.make_node("Reshape", ["mean", "to_n11"], ["n11"]),
        helper.make_node("Mul", ["n11", "zero"], ["zeros"]),
        helper.make_node("Add", ["zeros", "head_values"], ["head"]),
    ]
    consts = [numpy_helper.from_array(np.array([-1, 1, 1], dtype=np.int64), "to_n11"),
              numpy_helper.from_array(np.zeros(1, dtype=np.float32), "zero"),
              numpy_helper.from_array(head, "head_values")]
    return nodes, consts


def dim(value):
    return value if value != "open" else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--layout", default="nchw")
    p.add_argument("--size", default="8x6")
    p.add_argument("--batch", default="open")
    p.add_argument("--input-type", default="float")
    p.add_argument("--rank", type=int, default=4)
    p.add_argument("--inputs", type=int, default=1)
    p.add_argument("--opset", type=int, default=13)
    p.add_argument("--head", default="")
    a = p.parse_args()
    h, w = (None, None) if a.size == "open" else map(int, a.size.split("x"))
    n = None if a.batch == "open" else int(a.batch)
    names = ["N", "H", "W"]
    shape = [n or names[0], h or names[1], w or names[2]]
    shape = [shape[0], 3, shape[1], shape[2]] if a.layout == "nchw" else [shape[0], shape[1], shape[2], 3]
    if a.rank == 3:
        shape = shape[1:]
    elem = TensorProto.FLOAT if a.input_type == "float" else TensorProto.UINT8
    inputs = [helper.make_tensor_value_info("image", elem, shape)]
    if a.inputs == 2:
        inputs.append(helper.make_tensor_value_info("scale", TensorProto.FLOAT, [1]))
    weights = np.array([[1 / 3, 1 / 3, 1 / 3], [1, 0, -1]], dtype=np.float32).reshape(2, 3, 1, 1)
    nodes, source = [], "image"
    if a.rank == 3 or a.input_type != "float":
        # No convolution fits these: the image itself, as float, is the output.
        nodes.append(helper.make_node("Cast", ["image"], ["heat"], to=TensorProto.FLOAT))
        outputs = [helper.make_tensor_value_info("heat", TensorProto.FLOAT, shape)]
    else:
        if a.layout == "nhwc":
            nodes.append(helper.make_node("Transpose", ["image"], ["nchw"], perm=[0, 3, 1, 2]))
            source = "nchw"
        nodes.append(helper.make_node("Conv", [source, "w"], ["conv"]))
        last = "conv"
        if a.inputs == 2:
            nodes.append(helper.make_node("Mul", ["conv", "scale"], ["scaled"]))
            last = "scaled"
        if a.layout == "nhwc":
            nodes.append(helper.make_node("Transpose", [last], ["heat"], perm=[0, 2, 3, 1]))
        else:
            nodes.append(helper.make_node("Identity", [last], ["heat"]))
        out_shape = [shape[0], 2, shape[2], shape[3]] if a.layout == "nchw" else [shape[0], shape[1], shape[2], 2]
        outputs = [helper.make_tensor_value_info("heat", TensorProto.FLOAT, out_shape)]
    initializers = [numpy_helper.from_array(weights, "w")]
    if a.head == "yolo":
        nodes, initializers = yolo_head_nodes()
        outputs = [helper.make_tensor_value_info("head", TensorProto.FLOAT, [shape[0], 7, 8])]
    graph = helper.make_graph(nodes, "known", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", a.opset)])
    model.ir_version = 8  # what ONNX Runtime 1.29 and python3-onnx 1.12 both read
    if a.opset <= 17:  # python3-onnx 1.12 checks up to 17; a newer one is for ONNX Runtime to refuse
        onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()
