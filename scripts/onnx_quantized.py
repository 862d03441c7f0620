#!/usr/bin/env python3
"""ONNX Runtime's 8-bit quantization as the reference for rebel-zero's (issue 49): is the accuracy bar
(the policy's top move as f32's on >= 99% of study positions, the value within 0.01 on average)
reachable by a standard post-training quantizer on the same trained weights, the same calibration
positions and the same study positions?

    pip install onnx onnxruntime numpy
    rebel-zero quantize COPY_OF_CHECKPOINT --check docs/studies/STUDY/games.jsonl.gz --export DIR
    python3 scripts/onnx_quantized.py DIR [DIR ...]

(`quantize` writes calibration.json beside the weights, so give it a copy of a shipped checkpoint.)

For each folder it rebuilds the network as an ONNX graph (f32, batch norms folded) and checks it
against rebel-zero's f32 answers, then quantizes it with `onnxruntime.quantization.quantize_static`
(QDQ, int8 weights per output channel, uint8 activations, calibrated on the same positions rebel-zero
calibrates on) in several settings, and compares each with the f32 graph on the checked positions,
beside rebel-zero's own 8-bit answers. It prints one markdown table row per network and setting, then
how close to a tie the disagreements are (the f32 policy's gap, in probability, between its top move
and the move the 8-bit network puts first).
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                      quantize_static)


def to_bfloat16(values):
    """`values` rounded to the nearest bfloat16 (ties to even), kept as float32."""
    bits = values.astype(np.float32).view(np.uint32)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def graph(folder, bf16=False):
    """The network of `folder/network.json` as an ONNX model: inputs `input` [batch, planes, h, w],
    outputs `policy` (logits, [batch, actions]) and `wdl` (probabilities, [batch, 3]). With `bf16`,
    each 3x3 convolution's weights and input are rounded to bfloat16 and summed in f32, as AVX-512's
    `vdpbf16ps` would."""
    index = json.load(open(os.path.join(folder, "network.json")))
    shape, layers = index["shape"], {layer["name"]: layer for layer in index["layers"]}
    width, height = shape["grid"]
    planes, actions = shape["planes"], shape["actions"]
    blocks = int(shape["tower"].split("c")[0][1:])  # "b4c32"
    inits, nodes = [], []

    def layer(name, x, out, relu):
        weight = np.load(os.path.join(folder, f"{name}.weight.npy"))
        bias = np.load(os.path.join(folder, f"{name}.bias.npy"))
        rounded = bf16 and weight.shape[2:] == (3, 3)
        if rounded:
            weight = to_bfloat16(weight)
        inits.append(numpy_helper.from_array(weight, name + ".w"))
        inits.append(numpy_helper.from_array(bias, name + ".b"))
        target = out + ".pre" if relu else out
        if rounded:
            nodes.append(helper.make_node("Cast", [x], [name + ".in16"], to=TensorProto.BFLOAT16))
            nodes.append(helper.make_node("Cast", [name + ".in16"], [name + ".in"], to=TensorProto.FLOAT))
            x = name + ".in"
        if layers[name]["kind"] == "conv":
            pad = weight.shape[2] // 2
            nodes.append(helper.make_node("Conv", [x, name + ".w", name + ".b"], [target], pads=[pad] * 4,
                                          kernel_shape=list(weight.shape[2:])))
        else:
            nodes.append(helper.make_node("Gemm", [x, name + ".w", name + ".b"], [target]))
        if relu:
            nodes.append(helper.make_node("Relu", [target], [out]))
        return out

    x = layer("stem", "input", "stem.out", True)
    for b in range(blocks):
        y = layer(f"block{b}.first", x, f"b{b}.inner", True)
        y = layer(f"block{b}.second", y, f"b{b}.sum.pre", False)
        nodes.append(helper.make_node("Add", [y, x], [f"b{b}.sum"]))
        nodes.append(helper.make_node("Relu", [f"b{b}.sum"], [f"b{b}.out"]))
        x = f"b{b}.out"
    p = layer("policy.conv", x, "p.conv", True)
    inits.append(numpy_helper.from_array(np.array([-1, actions], np.int64), "policy.shape"))
    if "policy.out" in layers:
        nodes.append(helper.make_node("Flatten", [p], ["p.flat"], axis=1))
        layer("policy.out", "p.flat", "policy", False)
    else:
        # [batch, kinds, h, w] -> [batch, h, w, kinds] -> [batch, actions]: cell-major, as rebel-zero's.
        layer("policy.cells", p, "p.cells", False)
        nodes.append(helper.make_node("Transpose", ["p.cells"], ["p.t"], perm=[0, 2, 3, 1]))
        nodes.append(helper.make_node("Reshape", ["p.t", "policy.shape"], ["policy"]))
    v = layer("value.conv", x, "v.conv", True)
    nodes.append(helper.make_node("Flatten", [v], ["v.flat"], axis=1))
    h = layer("value.hidden", "v.flat", "v.hidden", True)
    layer("value.out", h, "v.logits", False)
    nodes.append(helper.make_node("Softmax", ["v.logits"], ["wdl"], axis=1))
    model = helper.make_model(
        helper.make_graph(
            nodes, "policy_value",
            [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", planes, height, width])],
            [helper.make_tensor_value_info("policy", TensorProto.FLOAT, ["batch", actions]),
             helper.make_tensor_value_info("wdl", TensorProto.FLOAT, ["batch", 3])],
            inits),
        opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    onnx.checker.check_model(model)
    return model


class Positions(CalibrationDataReader):
    """The calibration positions as one batch (the histogram calibrators need batches of one size)."""

    def __init__(self, data):
        self.batches = iter([{"input": data}])

    def get_next(self):
        return next(self.batches, None)


def run(model_path, data, threads=2):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    policy, wdl = [], []
    for i in range(0, len(data), 256):
        p, w = session.run(None, {"input": data[i:i + 256]})
        policy.append(p)
        wdl.append(w)
    return np.concatenate(policy), np.concatenate(wdl)


def top_moves(policy, legal):
    return np.where(legal.astype(bool), policy, -np.inf).argmax(axis=1)


def compare(reference, other, legal):
    """Top-move agreement, mean and largest |value difference|, and for each disagreement the gap in
    the reference's probability between its top move and the other's."""
    (p0, w0), (p1, w1) = reference, other
    top0, top1 = top_moves(p0, legal), top_moves(p1, legal)
    v0, v1 = w0[:, 0] - w0[:, 2], w1[:, 0] - w1[:, 2]
    logits = np.where(legal.astype(bool), p0, -np.inf)
    probability = np.exp(logits - logits.max(axis=1, keepdims=True))
    probability /= probability.sum(axis=1, keepdims=True)
    rows = np.nonzero(top0 != top1)[0]
    gaps = probability[rows, top0[rows]] - probability[rows, top1[rows]]
    ordered = np.sort(probability, axis=1)
    clear = ordered[:, -1] - ordered[:, -2] >= CLEAR_LEAD
    agreement = (top0 == top1).mean(), (top0 == top1)[clear].mean(), clear.mean()
    return agreement, np.abs(v0 - v1).mean(), np.abs(v0 - v1).max(), gaps


# A top move that leads the second by at least this much probability (1 point) is not a near-tie.
CLEAR_LEAD = 0.01


SETTINGS = {
    # name: the 3x3 convolutions only (as rebel-zero), or ONNX Runtime's default (every op it can);
    # the calibration method.
    "ORT, convolutions, MinMax": (["Conv"], CalibrationMethod.MinMax),
    "ORT, every op, MinMax": (None, CalibrationMethod.MinMax),
    "ORT, every op, Entropy": (None, CalibrationMethod.Entropy),
    "ORT, every op, Percentile 99.999": (None, CalibrationMethod.Percentile),
}


def quantized(model_path, calibration, ops, method, out_path, layers):
    extra = {"ActivationSymmetric": False, "WeightSymmetric": True}
    if method == CalibrationMethod.Percentile:
        extra["CalibPercentile"] = 99.999
    # rebel-zero's 8 bits cover the 3x3 convolutions (stem, tower, a per-cell head's first): with
    # `ops = ["Conv"]` the heads' 1x1 convolutions are left in f32 as well.
    exclude = [] if ops is None else [n for n in ("policy.cells", "value.conv") if n in layers]
    if ops is not None and "policy.out" in layers:
        exclude.append("policy.conv")
    quantize_static(model_path, out_path, Positions(calibration), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, calibrate_method=method,
                    op_types_to_quantize=ops, nodes_to_exclude=exclude,
                    extra_options=extra)


def name_nodes(model):
    """Names each node by its layer (its weight's name without `.w`), so settings can exclude layers."""
    for i, node in enumerate(model.graph.node):
        weight = next((x for x in node.input if x.endswith(".w")), None)
        node.name = weight[:-2] if weight else f"{node.op_type}.{i}"


def row(name, setting, agreement, mean, largest, digits=4):
    overall, clear, share = agreement
    print(f"| {name} | {setting} | {100 * overall:.2f}% | {100 * clear:.2f}% ({100 * share:.0f}%) | "
          f"{mean:.{digits}f} | {largest:.{digits}f} |")


def describe(gaps):
    if len(gaps) == 0:
        return "none"
    q = np.percentile(gaps, [10, 50, 90]) * 100
    return f"{len(gaps)} positions; gap {q[0]:.2f}% / {q[1]:.2f}% / {q[2]:.2f}% (10th / median / 90th)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}, numpy {np.__version__}")
    print("| network | reduced precision | top move as f32 | where f32 leads by ≥ 1 point (share of positions) "
          "| mean \\|Δ value\\| | largest \\|Δ value\\| |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    notes = []
    for folder in args.folders:
        name = os.path.basename(os.path.normpath(folder))
        legal = np.load(os.path.join(folder, "legal.npy"))
        data = np.load(os.path.join(folder, "positions.npy"))
        calibration = np.load(os.path.join(folder, "calibration.npy"))
        ours = {p: (np.load(os.path.join(folder, f"{p}.policy.npy")), np.load(os.path.join(folder, f"{p}.wdl.npy")))
                for p in ("f32", "int8")}
        model = graph(folder)
        name_nodes(model)
        layers = {n.name for n in model.graph.node}
        with tempfile.TemporaryDirectory() as scratch:
            f32_path = os.path.join(scratch, "f32.onnx")
            onnx.save(model, f32_path)
            reference = run(f32_path, data, args.threads)
            # The rebuilt graph must be rebel-zero's f32 network, or nothing below means anything.
            agree, mean, largest, _ = compare(ours["f32"], reference, legal)
            row(name, "none: the ONNX f32 graph against rebel-zero's f32 (a check of the export)", agree, mean,
                largest, digits=6)
            agree, mean, largest, gaps = compare(ours["f32"], ours["int8"], legal)
            row(name, "rebel-zero int8", agree, mean, largest)
            notes.append(f"{name}, rebel-zero int8: {describe(gaps)}")
            bf16_path = os.path.join(scratch, "bf16.onnx")
            bf16_model = graph(folder, bf16=True)
            stem = next(numpy_helper.to_array(i) for i in bf16_model.graph.initializer if i.name == "stem.w")
            assert np.array_equal(stem, to_bfloat16(stem)), "the bfloat16 graph holds rounded weights"
            onnx.save(bf16_model, bf16_path)
            agree, mean, largest, gaps = compare(reference, run(bf16_path, data, args.threads), legal)
            row(name, "bfloat16 3x3 convolutions (simulated)", agree, mean, largest)
            notes.append(f"{name}, bfloat16: {describe(gaps)}")
            for setting, (ops, method) in SETTINGS.items():
                out_path = os.path.join(scratch, "int8.onnx")
                quantized(f32_path, calibration, ops, method, out_path, layers)
                agree, mean, largest, gaps = compare(reference, run(out_path, data, args.threads), legal)
                row(name, setting, agree, mean, largest)
                notes.append(f"{name}, {setting}: {describe(gaps)}")
    print()
    print("Disagreements: the f32 policy's probability of its top move minus that of the 8-bit top move")
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    sys.exit(main())
