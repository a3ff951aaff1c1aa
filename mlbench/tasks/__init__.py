"""The Task contract every benchmark fulfils (base.py) and the prompt helpers several
benchmarks share. The benchmarks themselves live in ``mlbench.benchmarks``."""
