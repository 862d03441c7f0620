#!/usr/bin/env python3
"""Runs a rebel-zero balance study on a Ray cluster: one Ray task per cell still missing.

    python3 scripts/ray/study.py STUDY.toml [--address auto] [--out DIR] [--cpus-per-cell N]

Each task runs `rebel-zero balance STUDY --cell ID --out SCRATCH` (a scratch folder of its node) and
returns the finished cell file through Ray's object store; this driver writes it into DIR/cells/ (a temporary
file, then a rename: a cell file is never half-written), so the nodes share no file system. A task
whose worker dies, or whose rebel-zero is killed, is retried by Ray. Once every cell is in, the report
is written by `rebel-zero balance STUDY --out DIR`, which finds every cell done and plays nothing.
Cells are deterministic by seed: the cell files are byte-identical to a local run's.

The rebel-zero binary and the files a study names (`net:path=checkpoints/…`) must be at the same
paths on every node: the binary runs in this driver's working folder where a node has it. The binary
is --binary, else $REBEL_ZERO_BIN, else `rebel-zero` on PATH, else target/release/rebel-zero of this
checkout.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import tomllib

import ray

import rebel_zero_ray
from rebel_zero_ray import die_with_parent, find_binary


@ray.remote(max_retries=3, retry_exceptions=True)
def play_cell(binary, study_text, study_name, cell_id, threads, folder):
    """Plays one cell in a scratch folder; returns the cell file and its timing file, as bytes.

    The binary runs in `folder` (the driver's working folder) where the node has it, so that paths in
    the study (`net:path=checkpoints/…`) mean what they mean to a local run."""
    with tempfile.TemporaryDirectory(prefix="rebel-zero-cell-") as scratch:
        study = pathlib.Path(scratch) / study_name
        study.write_text(study_text)
        out = pathlib.Path(scratch) / "out"
        command = [binary, "balance", str(study), "--out", str(out), "--cell", cell_id,
                   "--threads", str(threads)]
        # The task holds `threads` CPUs of Ray's: its network kernels (rayon) get as many, not all the
        # node's cores, or tasks sharing a node would oversubscribe it.
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        done = subprocess.run(command, capture_output=True, text=True, env=env, preexec_fn=die_with_parent,
                              cwd=folder if os.path.isdir(folder) else None)
        if done.returncode != 0:
            raise RuntimeError(f"cell {cell_id}: rebel-zero exited with {done.returncode}: {done.stderr}")
        cells = out / "cells"
        return cell_id, (cells / f"{cell_id}.json").read_bytes(), (cells / f"{cell_id}.seconds").read_bytes()


def write_atomic(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)}: {done.stderr.strip()}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("study", type=pathlib.Path, help="the study file (TOML)")
    parser.add_argument("--address", default=None,
                        help="the Ray cluster (`auto`: the one this machine belongs to); default: a local one")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="output directory, as `rebel-zero balance --out` (default studies/<name>)")
    parser.add_argument("--cpus-per-cell", type=int, default=1, help="cores per cell task (its --threads)")
    parser.add_argument("--binary", default=None, help="the rebel-zero binary, at this path on every node")
    args = parser.parse_args()

    binary = find_binary(args.binary)
    study_text = args.study.read_text()
    name = tomllib.loads(study_text)["name"]
    out = args.out or pathlib.Path("studies") / name
    missing = json.loads(run([binary, "balance", str(args.study), "--out", str(out), "--list-cells"]))
    games = sum(cell["games"] for cell in missing)
    print(f"study {name}: {len(missing)} cells to play ({games} games) on Ray", flush=True)

    ray.init(address=args.address, logging_level="ERROR", log_to_driver=False,
             runtime_env={"py_modules": [rebel_zero_ray]})
    started = time.time()
    pending = [play_cell.options(num_cpus=args.cpus_per_cell).remote(
        binary, study_text, args.study.name, cell["id"], args.cpus_per_cell, os.getcwd()) for cell in missing]
    finished = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        cell_id, cell, seconds = ray.get(ready[0])
        write_atomic(out / "cells" / f"{cell_id}.seconds", seconds)
        write_atomic(out / "cells" / f"{cell_id}.json", cell)
        finished += 1
        print(f"[{finished}/{len(missing)}] {cell_id} ({time.time() - started:.1f} s)", flush=True)
    ray.shutdown()
    print(run([binary, "balance", str(args.study), "--out", str(out)]), end="")


if __name__ == "__main__":
    main()
