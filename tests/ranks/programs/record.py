"""Runs a Python program as __main__ and copies its stdout to DIR/rank-<rank>.out.

    python record.py DIR program.py [args...]

The runtime may silence every rank but rank 0 (issue 3, output); the copy lets a test check
what each rank printed.
"""
import os
import runpy
import sys


class Tee:
    """A text stream writing to several others."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self):
        for stream in self.streams:
            stream.flush()


def main():
    out_dir, program, *args = sys.argv[1:]
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", "0")
    with open(os.path.join(out_dir, f"rank-{rank}.out"), "w") as copy:
        sys.stdout = Tee(sys.__stdout__, copy)
        sys.argv = [program, *args]
        sys.path[0] = os.path.dirname(os.path.abspath(program))
        try:
            runpy.run_path(program, run_name="__main__")
        finally:
            sys.stdout.flush()
            sys.stdout = sys.__stdout__


if __name__ == "__main__":
    main()
