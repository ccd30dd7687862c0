"""A rank that fails while every rank works: for the failure tests.

    python failing.py MODE DIR

Every rank writes its pid to DIR/rank-<rank>.pid once its first reduction is done, then
loops on tessera work (element-wise updates and a reduction each step, so on several ranks
each step communicates). Once the test creates DIR/go, rank 1 does what MODE says: "loop"
(nothing: the test kills it), "segfault" (SIGSEGV to itself), "raise" (an unhandled
exception) or "exit" (sys.exit(3), leaving the other ranks waiting for its part of the next
step).
"""
import os
import signal
import sys

import tessera.numpy as np


def main():
    mode, pid_dir = sys.argv[1:]
    go = os.path.join(pid_dir, "go")
    rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
    a = np.ones(400_000)
    step = 0
    while True:
        a = a * 0.5 + 1.0
        total = float(a.sum())
        step += 1
        if step == 1:
            path = os.path.join(pid_dir, f"rank-{rank}.pid")
            with open(path + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.rename(path + ".tmp", path)
        if rank == 1 and os.path.exists(go):
            if mode == "segfault":
                os.kill(os.getpid(), signal.SIGSEGV)
            elif mode == "raise":
                raise RuntimeError(f"rank 1 gives up at step {step} (sum {total})")
            elif mode == "exit":
                sys.exit(3)


if __name__ == "__main__":
    main()
