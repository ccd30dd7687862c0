"""Profiles of a 2-rank run (issue 4 on ranks): --profile writes one tessera_<rank>.prof per
rank, the copies between ranks appear in each rank's channel lane with their bytes and the
line that needed them, and tessera-prof shows both ranks (summary, Perfetto export, and the
HTML timeline in headless Chromium)."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import harness

JACOBI = harness.REPO / "examples" / "python" / "jacobi.py"


def find_prof():
    if os.environ.get("TESSERA_PROF_EXE"):
        return Path(os.environ["TESSERA_PROF_EXE"])
    beside = Path(harness.PYTHON).parent / "tessera-prof"
    return beside if beside.is_file() else None


PROF = find_prof()
pytestmark = pytest.mark.skipif(PROF is None, reason="tessera-prof is not installed beside this Python")


def prof(*args):
    r = subprocess.run([str(PROF), *map(str, args)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    logdir = tmp_path_factory.mktemp("profiles")
    run = harness.run_mpi(2, harness.python(JACOBI, "-n", "600", "--iters", "10"),
                          config=f"--cpus=1 --profile --logdir={logdir}", timeout=180)
    assert run.returncode == 0, run.describe()
    files = sorted(logdir.glob("tessera_*.prof"))
    assert [f.name for f in files] == ["tessera_0.prof", "tessera_1.prof"], run.describe()
    return files


def test_summary_shows_both_ranks_and_their_copies(traces):
    out = prof("summary", *traces)
    for rank in (0, 1):
        section = re.search(rf"^rank {rank} on .*?(?=^rank \d|^Operations)", out, re.M | re.S)
        assert section, out
        # Each rank sends its boundary rows and receives the other's once per group of sweeps
        # fused in time (at most 8 a group, so 10 sweeps make at least 2 groups), as many rows
        # as the group has sweeps: 10 rows of 600 doubles each way in all, at least.
        copies = re.search(r"^  channel .*?(\d+) copies, ([\d.]+) (KiB|MiB)", section.group(0), re.M)
        assert copies and int(copies.group(1)) >= 4, section.group(0)
        kib = float(copies.group(2)) * (1024 if copies.group(3) == "MiB" else 1)
        assert kib >= 2 * 10 * 600 * 8 / 1024, section.group(0)
    # The copies are operations of their own, attributed to the stencil's line.
    assert re.search(r"\bsend\s+\S*jacobi\.py:\d+", out), out
    assert re.search(r"\breceive\s+\S*jacobi\.py:\d+", out), out


def test_perfetto_export_has_a_process_per_rank(traces, tmp_path):
    out = tmp_path / "trace.json"
    prof("export", "--perfetto", *traces, "-o", out)
    events = json.loads(out.read_text())["traceEvents"]
    assert {e["pid"] for e in events if e["ph"] == "X"} == {0, 1}


def test_timeline_draws_both_ranks_in_chromium(traces, tmp_path):
    page = tmp_path / "ranks.html"
    prof("view", *traces, "-o", page, "--no-browser")
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    if browser is None:
        pytest.skip("headless Chromium is not installed (Debian package `chromium`)")
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900",
                        "--virtual-time-budget=5000", "--dump-dom", page.as_uri() + "#selftest"],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="tessera-selftest">(.*?)</pre>', r.stdout, re.S)
    assert m, r.stderr[-2000:]
    result = json.loads(m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                        .replace("&amp;", "&"))
    assert result["ranks"] == 2
    assert result["lanes"].count("channel") == 2, result["lanes"]
    assert result["boxes"] + result["bands"] > 10
