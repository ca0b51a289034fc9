"""The README's tests in a checkout that is in use: the test suite (or a part of it) runs
while ``python3 -m solver serve`` answers solves and a loop of command-line solves under
several rule sets runs, all on the same checkout and the same caches (the compiled
kernels in ``solver/__pycache__``, the row tables, the pools).  A crash of 'descr' is NULL came from such
a checkout: its kernel cache, written by a test run, solves and the study page's workers
at once, crashed every later run with ``'descr' is NULL``.

    python3 benchmarks/in_use.py [--minutes 20] [--rules joker classic classic:eastern pagat]
                                 [-- PYTEST ARGS ...]

Without PYTEST ARGS it runs the tests of the kernel cache, the compile notices, the
command line and the web API.  The server listens on loopback (a free port); everything
stops at the end or after ``--minutes``.  It passes when the tests pass, every solve of
the loop and of the server succeeded, and no output of any of them says a cache file
could not be used, ``descr``, or a traceback.  Its last lines say what ran, how often,
and the load average.  (It uses the checkout's own caches on purpose: run it on a
checkout whose caches you may lose.)
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TESTS = ["tests/test_kernel_cache.py", "tests/test_notice.py", "tests/test_cli.py",
                 "tests/test_web_api.py", "-m", "not slow"]
BAD = ("cannot be used", "descr", "Traceback", "SystemError")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port: int, path: str, body: dict, timeout: float = 300) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0,
                        help="stop everything after this long (default 20)")
    parser.add_argument("--rules", nargs="+",
                        default=["joker", "classic", "classic:eastern", "pagat"])
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments")
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(ROOT)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    outputs: "list[str]" = []
    counts = {"loop solves": 0, "server solves": 0, "failures": 0}
    stop = threading.Event()

    def loop_of_solves():
        i = 0
        while not stop.is_set() and time.monotonic() < deadline:
            rules = args.rules[i % len(args.rules)]
            i += 1
            run = subprocess.run([sys.executable, "-m", "solver", "--rules", rules,
                                  "--samples", "200", "--json"], cwd=ROOT, env=env,
                                 capture_output=True, text=True,
                                 timeout=max(1, deadline - time.monotonic()))
            outputs.append(run.stderr)
            counts["loop solves"] += 1
            if run.returncode != 0:
                counts["failures"] += 1
                print(f"in_use: solve --rules {rules} failed: {run.stderr[-500:]}",
                      file=sys.stderr, flush=True)

    def server_solves():
        for _ in range(600):                               # its start: at most a minute
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        i = 0
        while not stop.is_set() and time.monotonic() < deadline:
            rules = args.rules[i % len(args.rules)]
            i += 1
            try:
                hands = post(port, "/api/deal", {"rules": rules, "seed": i})["hands"]
                post(port, "/api/solve", {"cards": hands[0], "rules": rules,
                                          "samples": 200})
                counts["server solves"] += 1
            except Exception as e:                      # noqa: BLE001 -- said, counted
                counts["failures"] += 1
                print(f"in_use: the server's solve under {rules} failed: {e}",
                      file=sys.stderr, flush=True)
                time.sleep(1)

    threads = [threading.Thread(target=loop_of_solves, daemon=True),
               threading.Thread(target=server_solves, daemon=True)]
    for t in threads:
        t.start()
    start = time.perf_counter()
    try:
        tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p",
                                "no:cacheprovider", *(args.pytest_args or DEFAULT_TESTS)],
                               cwd=ROOT, env=env,
                               timeout=max(1, deadline - time.monotonic()))
        tests_ok = tests.returncode == 0
    except subprocess.TimeoutExpired:
        print(f"in_use: the tests took more than {args.minutes} minutes", file=sys.stderr)
        tests_ok = False
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=600)
        server.terminate()
        try:
            server_out, _ = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server_out, _ = server.communicate()
    outputs.append(server_out)
    bad = [line for out in outputs for line in out.splitlines()
           if any(word in line for word in BAD)]
    for line in bad[:10]:
        print(f"in_use: said: {line}", file=sys.stderr)
    print(f"in_use: tests {'passed' if tests_ok else 'FAILED'} in "
          f"{time.perf_counter() - start:.0f} s beside {counts['loop solves']} command-line "
          f"solves and {counts['server solves']} server solves under "
          f"{', '.join(args.rules)}; {counts['failures']} failed; {len(bad)} lines of a "
          f"bad cache or a crash; load average {os.getloadavg()[0]:.1f}")
    return 0 if tests_ok and not counts["failures"] and not bad else 1


if __name__ == "__main__":
    raise SystemExit(main())
