"""The benchmarks' smoke runs: each runs at a tiny size, so that a benchmark that stops measuring what it says (as
the server benchmark did when onboarding began to gate the Care page) fails the suite."""
import os
import re
import subprocess

from careapp import BINARY
from conftest import ROOT


def test_the_server_benchmark_measures_the_care_feed_and_delivers_to_every_subscriber():
    result = subprocess.run([str(ROOT / "scripts" / "bench-server"), "--smoke"], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "OPENCAREKIT_BIN": BINARY})
    assert result.returncode == 0, result.stderr[-2000:]
    assert re.search(r"/healthz \(plaintext\)\s+\d+", result.stdout)
    assert re.search(r"/care \(demo store\)\s+\d+", result.stdout)
    fanout = re.search(r"one outcome write\s+(\d+)\s+(\d+)", result.stdout)
    assert fanout and fanout.group(1) == fanout.group(2) == "40", result.stdout
