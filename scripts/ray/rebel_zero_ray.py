"""What the two Ray drivers share: finding the rebel-zero binary, and tying its processes to their
parents. Shipped to the cluster's workers with each driver's job (`runtime_env` py_modules)."""

import ctypes
import os
import pathlib
import shutil
import signal
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]


def find_binary(given):
    """--binary, else $REBEL_ZERO_BIN, else `rebel-zero` on PATH, else this checkout's release build."""
    for candidate in (given, os.environ.get("REBEL_ZERO_BIN"), shutil.which("rebel-zero"),
                      REPO / "target" / "release" / "rebel-zero"):
        if candidate and pathlib.Path(candidate).is_file():
            return str(pathlib.Path(candidate).resolve())
    sys.exit("error: no rebel-zero binary: build it (cargo build --release) or pass --binary")


def die_with_parent():
    """Linux: a rebel-zero child is killed when the process that started it dies, so no orphan plays
    on after its Ray worker or driver is gone (a preexec_fn)."""
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass
