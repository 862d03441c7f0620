#!/usr/bin/env python3
"""Trains a rebel-zero network with self-play actors on a Ray cluster and one learner.

    python3 scripts/ray/train.py CONFIG.toml [--address auto] [--actors N] [--generations G]

The learner is `rebel-zero train CONFIG --learner RUN/incoming` (resumed with --resume when the run
already has a checkpoint), on this machine. Each actor is a Ray actor that loops: read the run's latest
generation, play a batch of games with `rebel-zero selfplay`, and put the game file into RUN/incoming/
(written under a dot-name, then renamed). The generations and the games pass through the run folder,
which every node must see (a shared file system); the learner deletes game files only once the
generation they trained is saved, so killing any process (this driver, the learner, an actor) loses
nothing: run the same command again and the run resumes.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import time
import tomllib

import ray

import rebel_zero_ray
from rebel_zero_ray import die_with_parent, find_binary


@ray.remote(max_restarts=-1, max_task_retries=-1)
class SelfPlayActor:
    """Plays batches from the latest generation until told to stop."""

    def __init__(self, binary, config, run_dir, index, games):
        self.binary, self.config, self.run_dir = binary, config, pathlib.Path(run_dir)
        self.index, self.games, self.batches = index, games, 0

    def play(self):
        """One batch; returns the file written, or None while there is no generation yet."""
        latest = self.run_dir / "latest"
        if not latest.exists():
            time.sleep(0.5)
            return None
        generation = self.run_dir / latest.read_text().strip()
        number = int(generation.name.split("-")[1])
        incoming = self.run_dir / "incoming"
        incoming.mkdir(parents=True, exist_ok=True)
        name = f"g{number:06d}-a{self.index:03d}-b{self.batches:06d}-p{os.getpid()}.jsonl"
        hidden = incoming / f".{name}"
        seed = (number << 32) | (self.index << 20) | self.batches
        command = [self.binary, "selfplay", self.config, "--checkpoint", str(generation), "--threads", "1",
                   "--games", str(self.games), "--seed", str(seed), "--out", str(hidden), "--quiet"]
        # One CPU of Ray's: one self-play thread, and the network kernels (rayon) on it too.
        env = dict(os.environ, RAYON_NUM_THREADS="1")
        done = subprocess.run(command, capture_output=True, text=True, env=env, preexec_fn=die_with_parent)
        if done.returncode != 0:
            # The generation may have been pruned by the learner meanwhile: try the next one.
            hidden.unlink(missing_ok=True)
            return None
        os.replace(hidden, incoming / name)
        self.batches += 1
        return name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=pathlib.Path, help="the training config (TOML)")
    parser.add_argument("--address", default=None,
                        help="the Ray cluster (`auto`: the one this machine belongs to); default: a local one")
    parser.add_argument("--actors", type=int, default=2, help="self-play actors (one core each)")
    parser.add_argument("--games-per-batch", type=int, default=None,
                        help="games per selfplay batch (default: a generation's games / actors)")
    parser.add_argument("--generations", type=int, default=None, help="stop after this many generations in total")
    parser.add_argument("--binary", default=None, help="the rebel-zero binary, at this path on every node")
    args = parser.parse_args()

    binary = find_binary(args.binary)
    config = tomllib.loads(args.config.read_text())
    run = config["run"]
    run_dir = pathlib.Path(run.get("checkpoint_dir", "checkpoints")) / run["name"]
    per_generation = config.get("selfplay", {}).get("games_per_generation", 96)
    batch = args.games_per_batch or max(1, per_generation // args.actors)

    learner = [binary, "train", str(args.config), "--learner", str(run_dir / "incoming"), "--quiet"]
    if (run_dir / "latest").exists():
        learner.append("--resume")
    if args.generations:
        learner += ["--generations", str(args.generations)]
    print(f"learner: {' '.join(learner)}", flush=True)
    learning = subprocess.Popen(learner, preexec_fn=die_with_parent)

    ray.init(address=args.address, logging_level="ERROR", log_to_driver=False,
             runtime_env={"py_modules": [rebel_zero_ray]})
    actors = [SelfPlayActor.options(num_cpus=1).remote(binary, str(args.config.resolve()), str(run_dir.resolve()), i, batch)
              for i in range(args.actors)]
    running = {actor.play.remote(): actor for actor in actors}
    while learning.poll() is None:
        ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
        for task in ready:
            actor = running.pop(task)
            try:
                name = ray.get(task)
                if name:
                    print(f"actor put {name}", flush=True)
            except ray.exceptions.RayError as error:  # the actor died: Ray restarts it
                print(f"an actor failed ({type(error).__name__}); it is restarted", flush=True)
            running[actor.play.remote()] = actor
    for actor in actors:
        ray.kill(actor, no_restart=True)
    ray.shutdown()
    sys.exit(learning.returncode)


if __name__ == "__main__":
    main()
