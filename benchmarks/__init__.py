"""NumPy-versus-tessera benchmarks; start them with `python benchmarks/run.py`."""
