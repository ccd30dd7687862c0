"""--profile and tessera-prof, end to end.

Runs programs under `tessera --profile --logdir D` and checks the trace files and what
`tessera-prof summary|view|export` make of them: the Jacobi example; the reference
document's inefficient program (a loop over 4096-element slices, nonzero + scatter) against
its whole-array rewrite; two ranks; a synthetic trace with a long copy and a full pool; and
the HTML timeline loaded in headless Chromium.

The executables are found next to sys.executable (an installed package), else beside the
extension module that `import tessera` would load (a dev build), else under build/.
TESSERA_EXE and TESSERA_PROF_EXE override.
"""

import importlib.util
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
JACOBI = REPO / "examples" / "python" / "jacobi.py"


def find_executable(name, override):
    if os.environ.get(override):
        return pathlib.Path(os.environ[override])
    candidates = [pathlib.Path(sys.executable).parent / name]
    spec = importlib.util.find_spec("tessera")
    if spec and spec.submodule_search_locations:
        for ext in pathlib.Path(list(spec.submodule_search_locations)[0]).glob("_tessera*.so"):
            candidates.append(ext.resolve().parent / name)
    candidates += [REPO / "build" / "dev" / name, *sorted(REPO.glob(f"build/*/{name}"))]
    return next((path for path in candidates if path.is_file()), None)


LAUNCHER = find_executable("tessera", "TESSERA_EXE")
PROF = find_executable("tessera-prof", "TESSERA_PROF_EXE")
pytestmark = pytest.mark.skipif(LAUNCHER is None or PROF is None, reason="tessera or tessera-prof not built")

INEFFICIENT = """\
import tessera.numpy as np
N = 1_000_000
x = np.random.random(N).astype(np.float32)
y = np.random.random(N).astype(np.float32)
cond_idx = np.nonzero((x < 0.25) & (y > 0.5))
z = x + y
z_alt = x * y + 1.0
z[cond_idx] = z_alt[cond_idx]
CHUNK = 4096
for s in range(0, N, CHUNK):
    sub = z[s:s + CHUNK]
    gt1 = sub > 1.0
    sub[gt1] = sub[gt1] + 2.0
    sub[~gt1] = sub[~gt1] - 2.0
print(float(z.sum()))
"""

EFFICIENT = """\
import tessera.numpy as np
N = 1_000_000
rng = np.random.default_rng()
x = rng.random(N, dtype=np.float32)
y = rng.random(N, dtype=np.float32)
z = np.empty_like(x)
np.add(x, y, out=z)
cond = (x < 0.25) & (y > 0.5)
np.putmask(z, cond, x * y + 1.0)
gt1 = z > 1.0
z[gt1] += 2.0
z[~gt1] -= 2.0
print(float(z.sum()))
"""


def environment(**extra):
    """This interpreter first on PATH (the launcher runs `python3`), no rank variables, no browser."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "BROWSER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    if env.get("PYTHONPATH"):  # programs may run in another directory
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    env.update(extra)
    return env


def profile(logdir, program, *args, flags=(), **env):
    """Runs `tessera --profile --logdir logdir [flags] program args`; returns the trace path."""
    r = subprocess.run([str(LAUNCHER), *flags, "--profile", "--logdir", str(logdir), str(program), *args],
                       env=environment(**env), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rank = env.get("OMPI_COMM_WORLD_RANK", "0")
    path = pathlib.Path(logdir) / f"tessera_{rank}.prof"
    assert path.is_file(), r.stderr
    assert f"profile written to {path}" in r.stderr
    return path


def prof(*args, env=None, check=True):
    r = subprocess.run([str(PROF), *map(str, args)], env=env or environment(), capture_output=True, text=True,
                       timeout=120)
    if check:
        assert r.returncode == 0, r.stderr
    return r


def records(path, tag):
    """The tab-separated fields of every `tag` record of a trace file."""
    lines = pathlib.Path(path).read_text().splitlines()
    assert lines[0] == "tessera-profile 2"
    assert lines[-1] == sealed("\n".join(lines[:-1]) + "\n")[-len(lines[-1]) - 1:-1]
    return [line.split("\t")[1:] for line in lines[1:] if line.split("\t")[0] == tag]


def sealed(body):
    """`body` (records, each ending in a newline) with the closing `end` record tessera-prof
    checks: the FNV-1a 64-bit hash of every byte before it."""
    h = 14695981039346656037
    for byte in body.encode():
        h = ((h ^ byte) * 1099511628211) % 2**64
    return body + f"end\t{h:016x}\n"


def task_count(summary):
    return int(re.search(r"^Task durations \((\d+) tasks\)", summary, re.M).group(1))


@pytest.fixture(scope="module")
def jacobi(tmp_path_factory):
    """Jacobi on a 200 x 200 grid, cut into tiles for two workers so tasks wait on each other."""
    logdir = tmp_path_factory.mktemp("jacobi")
    return profile(logdir, JACOBI, "-n", "200", "--iters", "20", flags=("--cpus", "2", "--min-cpu-chunk", "1024"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Traces of the reference document's inefficient program and of its rewrite."""
    out = {}
    for name, text in (("inefficient", INEFFICIENT), ("efficient", EFFICIENT)):
        d = tmp_path_factory.mktemp(name)
        (d / f"{name}.py").write_text(text)
        out[name] = profile(d / "logs", d / f"{name}.py", flags=("--cpus", "2"))
    return out


def test_trace_has_every_lane_and_the_programs_lines(jacobi):
    lanes = [fields[3] for fields in records(jacobi, "lane")]
    assert lanes == ["worker 0", "worker 1", "utility 0", "program", "channel", "SYSMEM"]
    ops = records(jacobi, "op")
    assert any(name == "copy" and where.endswith("jacobi.py:34") for _, name, where, _ in ops)
    assert any(where.endswith("jacobi.py:35") for _, _, where, _ in ops)
    kinds = {fields[1] for fields in records(jacobi, "span")}
    assert {"task", "analysis", "wait"} <= kinds
    assert records(jacobi, "dep"), "tiles of a sweep wait on the previous sweep's tiles"
    assert max(int(fields[2]) for fields in records(jacobi, "mem")) >= 200 * 200 * 8


def test_no_profile_without_the_flag(tmp_path):
    r = subprocess.run([str(LAUNCHER), str(JACOBI), "-n", "50", "--iters", "2"], cwd=tmp_path,
                       env=environment(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_summary_reports_lanes_operations_histogram_and_warnings(jacobi):
    out = prof("summary", jacobi).stdout
    for lane in ("worker 0", "worker 1", "utility 0", "program", "channel", "SYSMEM"):
        assert re.search(rf"^  {lane}\b", out, re.M), lane
    assert "Operations that took the most time" in out
    assert re.search(r"\bcopy\s+\S*jacobi\.py:3[45]$", out, re.M)
    assert task_count(out) > 20
    assert "< 10 µs" in out and ">= 100 ms" in out
    assert "\nWarnings\n" in out


def test_view_writes_one_self_contained_page(jacobi, tmp_path):
    out = tmp_path / "timeline.html"
    r = prof("view", jacobi, "-o", out)
    assert r.stdout.splitlines()[0] == str(out)
    assert "no browser found" in r.stdout  # and it does not fail
    html = out.read_text()
    assert "<canvas" in html and "window.tesseraTest" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html), "the page must not need the network"
    assert "jacobi.py:35" in html and "worker 1" in html


def test_view_defaults_beside_the_trace_and_opens_a_browser(jacobi, tmp_path):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    r = prof("view", jacobi, env=environment(BROWSER=str(browser)))
    page = jacobi.parent / "tessera_prof.html"
    assert r.stdout.strip() == str(page)
    deadline = time.time() + 10
    while not opened.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert opened.read_text().strip() == str(page.resolve())


def test_export_perfetto_writes_trace_event_json(jacobi, tmp_path):
    out = tmp_path / "trace.json"
    prof("export", "--perfetto", jacobi, "-o", out)
    events = json.loads(out.read_text())["traceEvents"]
    names = {e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert {"worker 0", "worker 1", "utility 0", "program"} <= names
    tasks = [e for e in events if e["ph"] == "X" and e["cat"] == "task"]
    assert tasks and all(e["dur"] >= 0 for e in tasks)
    assert any(e["args"].get("provenance", "").endswith("jacobi.py:35") for e in tasks)
    assert any(e["ph"] == "C" and e["name"] == "SYSMEM used" for e in events)
    assert any(e["ph"] == "f" for e in events), "dependences become flow arrows"


def test_help_and_errors(tmp_path):
    assert "view FILES" in prof("--help").stdout
    for command in ("view", "summary", "export"):
        assert f"usage: tessera-prof {command}" in prof(command, "--help").stdout
    r = prof("frobnicate", "x.prof", check=False)
    assert r.returncode == 2 and "unknown command 'frobnicate'" in r.stderr
    r = prof("summary", tmp_path / "missing.prof", check=False)
    assert r.returncode == 1 and "cannot open" in r.stderr
    r = prof("export", tmp_path / "missing.prof", check=False)
    assert r.returncode == 2 and "--perfetto" in r.stderr
    (tmp_path / "bad.prof").write_text(sealed("tessera-profile 2\nrank\tzero\n"))
    r = prof("summary", tmp_path / "bad.prof", check=False)
    assert r.returncode == 1 and "bad.prof:2: expected a number" in r.stderr


def damaged_profiles(good, tmp_path):
    """(name, path, what the message must say) for broken copies of the profile `good`:
    truncated at several offsets, a byte changed, random bytes, empty, text, another format,
    a directory."""
    data = good.read_bytes()
    cases = []
    for offset in (1, 10, 17, 18, 19, 40, len(data) // 3, len(data) // 2, len(data) - 30, len(data) - 2,
                   len(data) - 1):
        cases.append((f"cut-{offset}", data[:offset], "truncated" if offset >= 14 else "not a tessera profile"))
    for at in (len(data) // 4, len(data) // 2, len(data) - 40):
        flipped = bytearray(data)
        flipped[at] ^= 0x01
        cases.append((f"flip-{at}", bytes(flipped), "corrupt"))
    cases += [("random", bytes(random.Random(0).randrange(256) for _ in range(4096)), "not a tessera profile"),
              ("empty", b"", "empty file"), ("text", b"hello world\n", "not a tessera profile"),
              ("json", b'{"traceEvents": []}\n', "not a tessera profile"),
              ("older", b"tessera-profile 1\nrank\t0\n", "another format"),
              ("newline-only", data[:-1] + b"x\n", "corrupt")]
    out = []
    for name, content, needle in cases:
        path = tmp_path / f"{name}.prof"
        path.write_bytes(content)
        out.append((name, path, needle))
    (tmp_path / "dir.prof").mkdir()
    out.append(("dir", tmp_path / "dir.prof", "is a directory"))
    return out


def test_damaged_profiles_are_refused_naming_the_file(jacobi, tmp_path):
    cases = damaged_profiles(jacobi, tmp_path)
    for name, path, needle in cases:
        for command in (("summary",), ("view", "--no-browser", "-o", tmp_path / "v.html"),
                        ("export", "--perfetto", "-o", tmp_path / "t.json")):
            r = prof(*command, path, check=False)
            assert r.returncode == 1, (name, command, r.returncode, r.stdout[-500:], r.stderr)
            assert str(path) in r.stderr and needle in r.stderr, (name, command, r.stderr)
            assert r.stderr.startswith("tessera-prof: "), r.stderr
    # With a good profile beside them, the first bad one is named and nothing is written.
    (tmp_path / "v2.html").unlink(missing_ok=True)
    r = prof("view", "--no-browser", "-o", tmp_path / "v2.html", jacobi, cases[5][1], check=False)
    assert r.returncode == 1 and str(cases[5][1]) in r.stderr and not (tmp_path / "v2.html").exists()


def test_tiny_task_loop_against_whole_array_rewrite(reference):
    slow = prof("summary", reference["inefficient"]).stdout
    fast = prof("summary", reference["efficient"]).stdout
    assert task_count(slow) > 10 * task_count(fast), (slow, fast)
    assert "ran for less than 50 µs" in slow
    assert "ran for less than 50 µs" not in fast
    # The warning points at the loop's lines and the sync points the masks cost.
    assert re.search(r"inefficient\.py:1[234]\b.*tiny tasks, issued \d+ times", slow)
    assert "sync points" in slow


def test_two_ranks_are_two_sections(tmp_path):
    traces = [profile(tmp_path, JACOBI, "-n", "100", "--iters", "5", OMPI_COMM_WORLD_RANK=str(rank))
              for rank in (0, 1)]
    out = prof("summary", *traces).stdout
    assert re.search(r"^rank 0 on ", out, re.M) and re.search(r"^rank 1 on ", out, re.M)
    events = json.loads(prof("export", "--perfetto", *traces, "-o", tmp_path / "t.json") and
                        (tmp_path / "t.json").read_text())["traceEvents"]
    assert {e["pid"] for e in events if e["ph"] == "X"} == {0, 1}
    prof("view", *traces, "-o", tmp_path / "v.html")
    assert '"rank":1' in (tmp_path / "v.html").read_text()


def test_synthetic_trace_warns_about_long_copies_and_a_full_pool(tmp_path):
    trace = tmp_path / "tessera_0.prof"
    trace.write_text(sealed("\n".join([
        "tessera-profile 2", "rank\t0", "host\tnode", "start\t0", "duration\t100000000",
        "lane\t0\tworker\t0\tworker 0", "lane\t1\tutility\t0\tutility 0", "lane\t2\tprogram\t0\tprogram",
        "lane\t3\tchannel\t0\tchannel", "lane\t4\tmemory\t0\tSYSMEM",
        "op\t0\tadd\tprog.py:3\t(1000,)",
        "span\t0\ttask\t0\t90000000\t0\t0\t0\t[0:1000]",
        "span\t3\tcopy\t10000000\t60000000\t-1\t-1\t104857600\thalo exchange",
        "mem\t4\t5\t1000000\t1048576\t1000000\tstore of shape (1000,)",
    ]) + "\n"))
    out = prof("summary", trace).stdout
    assert "1 long copies" in out and "100.0 MiB in 50.00 ms" in out and "halo exchange" in out
    assert "SYSMEM peaked at" in out and "Raise --sysmem" in out
    assert re.search(r"^  channel .*1 copies, 100.0 MiB", out, re.M)


def test_synthetic_trace_warns_about_workers_starved_by_the_utility_thread(tmp_path):
    trace = tmp_path / "tessera_0.prof"
    lines = ["tessera-profile 2", "rank\t0", "host\tnode", "start\t0", "duration\t100000000",
             "lane\t0\tworker\t0\tworker 0", "lane\t1\tutility\t0\tutility 0", "lane\t2\tprogram\t0\tprogram",
             "lane\t3\tchannel\t0\tchannel", "op\t0\tadd\tprog.py:3\t(100,)"]
    # The utility thread analyses for 90 ms; the worker runs one 1 ms task every 10 ms.
    lines.append("span\t1\tanalysis\t0\t90000000\t0\t-1\t0\t10 point tasks")
    lines += [f"span\t0\ttask\t{t}\t{t + 1000000}\t0\t{i}\t0\t[0:100]" for i, t in
              enumerate(range(0, 100000000, 10000000))]
    trace.write_text(sealed("\n".join(lines) + "\n"))
    out = prof("summary", trace).stdout
    assert "the utility thread was busy analysing operations while the workers were mostly idle" in out
    assert "ran for less than 50 µs" not in out


def chromium():
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


def selftest(page):
    """Loads `page` in headless Chromium; returns what window.tesseraTest() reported."""
    browser = chromium()
    if browser is None:
        pytest.skip("headless Chromium is not installed (Debian package `chromium`)")
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900",
                        "--virtual-time-budget=5000", "--dump-dom", page.as_uri() + "#selftest"],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="tessera-selftest">(.*?)</pre>', r.stdout, re.S)
    assert m, r.stderr[-2000:]
    text = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    return json.loads(text)


def test_timeline_in_headless_chromium(jacobi, tmp_path):
    page = tmp_path / "jacobi.html"
    prof("view", jacobi, "-o", page, "--no-browser")
    result = selftest(page)
    assert result["ranks"] == 1
    assert result["lanes"] == ["worker 0", "worker 1", "utility 0", "program", "channel", "SYSMEM"]
    # Every span is drawn, as a box or merged into a band: how many of each depends on the run's
    # timing (on a loaded machine a long wait widens the time axis and the tasks merge into a
    # few bands), so the count of spans is checked, and that something of them was painted.
    assert result["spans"] > 10 and result["boxes"] + result["bands"] >= 2 and result["painted"] > 5000
    tooltip = result["tooltip"]
    assert re.search(r"^provenance: \S*jacobi\.py:\d+$", tooltip, re.M), tooltip
    assert re.search(r"^duration: ", tooltip, re.M) and re.search(r"^tile: \[\d+:\d+(, \d+:\d+)*\]$", tooltip, re.M)
    assert result["selected"] is not None and result["waitedOn"] > 0
    assert "waited on (outlined in red):" in result["info"]


def test_tiny_tasks_merge_into_grey_bands(reference, tmp_path):
    page = tmp_path / "inefficient.html"
    prof("view", reference["inefficient"], "-o", page, "--no-browser")
    result = selftest(page)
    assert result["bands"] > 0 and result["spans"] > 1000


PYTHON_TASK = """\
import tessera.numpy as np
from tessera import task, InputArray, OutputArray, align

@task(constraints=(align("y", "x"),))
def twice_plus_one(y: OutputArray, x: InputArray) -> None:
    y[:] = 2 * x + 1

x = np.arange(300_000.0)
y = np.empty_like(x)
for _ in range(3):
    twice_plus_one(y, x)
print(float(y.sum()))
"""


def test_python_task_appears_under_its_name(tmp_path):
    (tmp_path / "task.py").write_text(PYTHON_TASK)
    trace = profile(tmp_path / "logs", tmp_path / "task.py", flags=("--cpus", "2"))
    out = prof("summary", trace).stdout
    # Its points are tasks of an operation named after the function, issued at the call's line.
    assert re.search(r"\btwice_plus_one\s+\S*task\.py:11\b", out), out


def test_tasks_report_the_bytes_they_move(jacobi):
    """Each task span carries the bytes its arguments read and write (shifted views of one
    array count once), and the summary shows them per operation as GB/s."""
    spans = [fields for fields in records(jacobi, "span") if fields[1] == "task"]
    assert spans and all(int(fields[6]) >= 0 for fields in spans)
    # The stencil's tiles of a 200 x 200 float64 grid, cut for 2 workers: each reads about
    # half of p (plus a halo row) and writes half of the result, about 2 x 160 KB.
    stencil = [int(f[6]) for f in spans if int(f[6]) > 0]
    assert stencil and max(stencil) <= 2 * (200 * 200 * 8) and max(stencil) >= 200 * 200 * 8 // 2
    out = prof("summary", jacobi).stdout
    header = next(line for line in out.splitlines() if "operation" in line and "issued at" in line)
    assert "GB/s" in header
    rates = re.findall(r"^\s+\S+ \S+\s+\S+ %\s+\d+\s+\S+ \S+\s+(\d+\.\d)\s+\S", out, re.M)
    assert rates and any(float(r) > 0 for r in rates), out
