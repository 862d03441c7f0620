#!/usr/bin/env python3
"""PyTorch reference for `rebel-zero bench-train`: builds the same policy/value network as src/nn/model.rs
(same layers and shapes, PyTorch's own initialisation), times the same training step on the CPU at the same
batch sizes — forward in training mode, policy cross-entropy plus win/draw/loss cross-entropy, backward,
Adam with L2 weight decay (burn's defaults: betas 0.9/0.999, eps 1e-5, weight decay 1e-4, lr 2e-3) — on
random positions with one-hot targets, and runs `rebel-zero bench-train` in the same run, so both figures
come from one machine state.

    pip install torch numpy
    python3 scripts/torch_reference.py sixteen-rebels --size b4c32 --batches 256,1024

Prints one markdown table: batch, samples/s of rebel-zero's learner and of PyTorch (eager, NCHW, and
channels-last memory format), and the ratio to the faster PyTorch layout. A measuring tool, not a
dependency of the crate or of its tests.
"""
import argparse
import re
import subprocess
import sys
import time

import torch
from torch import nn
import torch.nn.functional as F

POLICY_CHANNELS = 2  # src/nn/model.rs
VALUE_HIDDEN = 64


def conv_norm(cin, cout, k):
    return nn.Sequential(nn.Conv2d(cin, cout, k, padding=k // 2, bias=False), nn.BatchNorm2d(cout, eps=1e-5, momentum=0.1))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.first, self.second = conv_norm(c, c, 3), conv_norm(c, c, 3)

    def forward(self, x):
        return F.relu(self.second(F.relu(self.first(x))) + x)


class Net(nn.Module):
    def __init__(self, planes, height, width, blocks, channels, actions, kinds):
        super().__init__()
        cells = height * width
        self.kinds, self.actions = kinds, actions
        self.stem = conv_norm(planes, channels, 3)
        self.tower = nn.Sequential(*[Block(channels) for _ in range(blocks)])
        if kinds is None:
            self.policy_conv = conv_norm(channels, POLICY_CHANNELS, 1)
            self.policy_out = nn.Linear(POLICY_CHANNELS * cells, actions)
        else:
            self.policy_conv = conv_norm(channels, channels, 3)
            self.policy_cells = nn.Conv2d(channels, kinds, 1)
        self.value_conv = conv_norm(channels, 1, 1)
        self.value_hidden = nn.Linear(cells, VALUE_HIDDEN)
        self.value_out = nn.Linear(VALUE_HIDDEN, 3)

    def forward(self, x):
        x = self.tower(F.relu(self.stem(x)))
        p = F.relu(self.policy_conv(x))
        if self.kinds is None:
            p = self.policy_out(p.flatten(1))
        else:
            # [batch, kinds, h, w] -> [batch, cells, kinds] -> [batch, actions]: cell-major, as in model.rs.
            p = self.policy_cells(p).flatten(2).transpose(1, 2).reshape(-1, self.actions)
        v = F.relu(self.value_hidden(F.relu(self.value_conv(x)).flatten(1)))
        return p, self.value_out(v)


def samples_per_second(net, batch, planes, height, width, actions, seconds, channels_last):
    generator = torch.Generator().manual_seed(1)
    x = torch.rand(batch, planes, height, width, generator=generator)
    if channels_last:
        net = net.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    policy_target = F.one_hot(torch.randint(actions, (batch,), generator=generator), actions).float()
    wdl_target = F.one_hot(torch.randint(3, (batch,), generator=generator), 3).float()
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3, betas=(0.9, 0.999), eps=1e-5, weight_decay=1e-4)
    net.train()

    def step():
        policy, value = net(x)
        loss = -(F.log_softmax(policy, 1) * policy_target).sum(1).mean() - (F.log_softmax(value, 1) * wdl_target).sum(1).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    step()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        count += batch
    return count / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default="sixteen-rebels")
    parser.add_argument("--size", default="b4c32")
    parser.add_argument("--batches", default="256,1024")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--binary", default="target/release/rebel-zero")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    ours = subprocess.run([args.binary, "bench-train", args.spec, "--size", args.size, "--batches", args.batches,
                           "--seconds", str(args.seconds)], check=True, capture_output=True, text=True).stdout
    header = re.search(r"(\d+) planes on (\d+)×(\d+), (\d+) actions, ([\d.]+) MFLOP", ours)
    planes, width, height, actions = map(int, header.groups()[:4])
    mflop = float(header.group(5))
    per_cell = re.search(r"per-cell policy head of (\d+) kinds", ours)
    kinds = int(per_cell.group(1)) if per_cell else None
    rates = {int(b): float(r) for b, r in re.findall(r"^\s*(\d+)\s+(\d+)\b", ours, re.M)}
    blocks, channels = map(int, re.fullmatch(r"b(\d+)c(\d+)", args.size).groups())

    head = f"per-cell policy head ({kinds} kinds)" if kinds else "dense policy head"
    print(f"{args.spec} {args.size}: {planes}×{height}×{width} input, {actions} actions, {head}, {mflop} MFLOP/sample; "
          f"torch {torch.__version__}, {args.threads} threads")
    print("| batch | rebel-zero samples/s | its GFLOP/s | PyTorch NCHW samples/s | PyTorch channels-last samples/s "
          "| rebel-zero / best PyTorch |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for batch in map(int, args.batches.split(",")):
        torch_rates = []
        for channels_last in (False, True):
            net = Net(planes, height, width, blocks, channels, actions, kinds)
            torch_rates.append(samples_per_second(net, batch, planes, height, width, actions, args.seconds, channels_last))
        ours_rate = rates[batch]
        print(f"| {batch} | {ours_rate:.0f} | {ours_rate * mflop / 1e3:.1f} | {torch_rates[0]:.0f} | {torch_rates[1]:.0f} "
              f"| {ours_rate / max(torch_rates):.2f} |")


if __name__ == "__main__":
    sys.exit(main())
