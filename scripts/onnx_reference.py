#!/usr/bin/env python3
"""ONNX Runtime reference for `rebel-zero bench-net`: builds the same policy/value network (same layers,
shapes and operation count as src/nn/model.rs, random weights) as an ONNX graph, times it with ONNX
Runtime on the CPU at the same batch sizes, and runs `rebel-zero bench-net` in the same run, so the two
figures come from one machine state.

    pip install onnx onnxruntime numpy
    python3 scripts/onnx_reference.py sixteen-rebels --size b4c32 --batches 1,8,64

Prints one markdown table: batch, then positions/s and GFLOP/s of burn's forward, of the inference forward
the search uses (src/nn/inference.rs) and of ONNX Runtime, and the two ratios to ONNX Runtime. ONNX Runtime
runs two graphs of the network, the layers as burn has them and the batch norms folded into the
convolutions; the faster of the two at each batch is the reference.
"""
import argparse
import re
import subprocess
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

POLICY_CHANNELS = 2  # src/nn/model.rs
VALUE_HIDDEN = 64


def build(planes, height, width, blocks, channels, actions, kinds, folded=False):
    """`kinds`: None for the dense policy head, else the per-cell head's move kinds per cell. `folded`: each
    batch norm folded into the convolution before it (a convolution with a bias, as an ONNX Runtime user
    exporting a trained network would write it), and the per-cell head transposed to cells-last in one
    step."""
    rng = np.random.default_rng(0)
    inits, nodes = [], []

    def weight(name, *shape):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.05).astype(np.float32), name))
        return name

    def conv_norm(x, name, cin, cout, k):
        pad = k // 2
        if folded:
            nodes.append(helper.make_node("Conv", [x, weight(name + ".w", cout, cin, k, k), weight(name + ".bias", cout)],
                                          [name + ".n"], pads=[pad] * 4, kernel_shape=[k, k]))
            return name + ".n"
        nodes.append(helper.make_node("Conv", [x, weight(name + ".w", cout, cin, k, k)], [name + ".c"],
                                      pads=[pad] * 4, kernel_shape=[k, k]))
        ins = [name + ".c"] + [weight(name + p, cout) for p in (".g", ".b", ".m")]
        inits.append(numpy_helper.from_array(np.ones(cout, np.float32), name + ".v"))
        nodes.append(helper.make_node("BatchNormalization", ins + [name + ".v"], [name + ".n"]))
        return name + ".n"

    def relu(x):
        nodes.append(helper.make_node("Relu", [x], [x + ".r"]))
        return x + ".r"

    def linear(x, name, i, o):
        nodes.append(helper.make_node("Gemm", [x, weight(name + ".w", o, i), weight(name + ".b", o)], [name], transB=1))
        return name

    x = relu(conv_norm("input", "stem", planes, channels, 3))
    for b in range(blocks):
        y = relu(conv_norm(x, f"t{b}a", channels, channels, 3))
        y = conv_norm(y, f"t{b}b", channels, channels, 3)
        nodes.append(helper.make_node("Add", [y, x], [f"t{b}.sum"]))
        x = relu(f"t{b}.sum")
    cells = height * width
    if kinds is None:
        p = relu(conv_norm(x, "pc", channels, POLICY_CHANNELS, 1))
        nodes.append(helper.make_node("Flatten", [p], ["pf"], axis=1))
        linear("pf", "policy", POLICY_CHANNELS * cells, actions)
    else:
        p = relu(conv_norm(x, "pc", channels, channels, 3))
        nodes.append(helper.make_node("Conv", [p, weight("pk.w", kinds, channels, 1, 1), weight("pk.b", kinds)],
                                      ["pk"], kernel_shape=[1, 1]))
        # [batch, kinds, h, w] -> [batch, cells, kinds] -> [batch, actions]: cell-major, as in model.rs.
        if folded:
            nodes.append(helper.make_node("Transpose", ["pk"], ["pk.t"], perm=[0, 2, 3, 1]))
        else:
            inits.append(numpy_helper.from_array(np.array([0, kinds, cells], np.int64), "pk.shape"))
            nodes.append(helper.make_node("Reshape", ["pk", "pk.shape"], ["pk.r"]))
            nodes.append(helper.make_node("Transpose", ["pk.r"], ["pk.t"], perm=[0, 2, 1]))
        inits.append(numpy_helper.from_array(np.array([0, actions], np.int64), "policy.shape"))
        nodes.append(helper.make_node("Reshape", ["pk.t", "policy.shape"], ["policy"]))
    v = relu(conv_norm(x, "vc", channels, 1, 1))
    nodes.append(helper.make_node("Flatten", [v], ["vf"], axis=1))
    h = relu(linear("vf", "vh", cells, VALUE_HIDDEN))
    linear(h, "value", VALUE_HIDDEN, 3)
    graph = helper.make_graph(
        nodes, "policy_value",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", planes, height, width])],
        [helper.make_tensor_value_info("policy", TensorProto.FLOAT, ["batch", actions]),
         helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 3])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    onnx.checker.check_model(model)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default="sixteen-rebels")
    parser.add_argument("--size", default="b4c32")
    parser.add_argument("--batches", default="1,8,64")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--binary", default="target/release/rebel-zero")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    burn = subprocess.run([args.binary, "bench-net", args.spec, "--size", args.size, "--batches", args.batches,
                           "--seconds", str(args.seconds)], check=True, capture_output=True, text=True).stdout
    header = re.search(r"(\d+) planes on (\d+)×(\d+), (\d+) actions, ([\d.]+) MFLOP", burn)
    planes, width, height, actions = map(int, header.groups()[:4])
    mflop = float(header.group(5))
    per_cell = re.search(r"per-cell policy head of (\d+) kinds", burn)
    kinds = int(per_cell.group(1)) if per_cell else None
    # Rows: batch, burn's forward (positions/s, GFLOP/s), the inference forward (positions/s, GFLOP/s).
    rates = {int(b): (float(burn_rate), float(ours)) for b, burn_rate, _, ours, _ in
             re.findall(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)$", burn, re.M)}
    blocks, channels = map(int, re.fullmatch(r"b(\d+)c(\d+)", args.size).groups())

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    batches = list(map(int, args.batches.split(",")))
    # One session at a time: an idle session's threads spin for a while after each run and would take
    # the cores from the next one.
    ort_rates = {batch: [] for batch in batches}
    for folded in (False, True):
        model = build(planes, height, width, blocks, channels, actions, kinds, folded).SerializeToString()
        session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        for batch in batches:
            data = np.random.default_rng(1).random((batch, planes, height, width), dtype=np.float32)
            session.run(None, {"input": data})
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                session.run(None, {"input": data})
                count += batch
            ort_rates[batch].append(count / (time.perf_counter() - start))
        del session
    head = f"per-cell policy head ({kinds} kinds)" if kinds else "dense policy head"
    print(f"{args.spec} {args.size}: {planes}×{height}×{width} input, {actions} actions, {head}, {mflop} MFLOP/position; "
          f"onnxruntime {ort.__version__}, {args.threads} threads")
    print("| batch | burn flex positions/s | inference forward positions/s | its GFLOP/s "
          "| ORT positions/s | ORT, folded norms, positions/s | best ORT GFLOP/s | burn / best ORT | inference / best ORT |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for batch in batches:
        best = max(ort_rates[batch])
        b, ours = rates[batch]
        print(f"| {batch} | {b:.0f} | {ours:.0f} | {ours * mflop / 1e3:.0f} | {ort_rates[batch][0]:.0f} | {ort_rates[batch][1]:.0f} | "
              f"{best * mflop / 1e3:.0f} | {b / best:.2f} | {ours / best:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
