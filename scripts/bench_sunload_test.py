#!/usr/bin/env python3
"""Tests of B10's load (scripts/bench/sunload.py): minted SUN URLs against NXP's example, the pools' order (rising
counters a tag, replays of answered taps, disjoint tags a thread), and the wrk Lua script walking its files.

Run: python3 scripts/bench_sunload_test.py   (`make lint` runs it, skipping what needs wrk or cryptography on a fresh
machine; `make test` runs it again with --require after `make test-deps`, where nothing may be skipped)
"""
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench.sunload import LUA, figures, mint, sdm_backend_path, serve_path, split, walk, write_pool  # noqa: E402

try:
    import cryptography  # noqa: F401
    CRYPTOGRAPHY = True
except ImportError:  # a fresh machine before `make test-deps`: the minting tests are skipped
    CRYPTOGRAPHY = False


@unittest.skipUnless(CRYPTOGRAPHY, "python3-cryptography is not installed (make test-deps)")
class MintTests(unittest.TestCase):
    def test_nxp_example_tap(self):
        # AN12196's example with all-zero keys: UID 04DE5F1EACC040, counter 61; its padding read back under K1.
        picc, mac = mint(bytes.fromhex("04DE5F1EACC040"), 61, bytes(16), bytes(16), bytes.fromhex("DA5CF60941"))
        self.assertEqual((picc, mac), ("EF963FF7828658A599F3041510671E88", "94EED9EE65337086"))

    def test_another_counter_or_key_changes_both_parameters(self):
        uid, pad = bytes.fromhex("04DE5F1EACC040"), bytes(5)
        first = mint(uid, 61, bytes(16), bytes(16), pad)
        for other in (mint(uid, 62, bytes(16), bytes(16), pad), mint(uid, 61, bytes(15) + b"\x01", bytes(16), pad)):
            self.assertNotEqual(first[0], other[0])
        self.assertNotEqual(first[1], mint(uid, 61, bytes(16), bytes(15) + b"\x01", pad)[1])


class WalkTests(unittest.TestCase):
    def test_counters_rise_a_tag_and_replays_repeat_answered_taps(self):
        tags, connections_a_thread = 30, 25
        pairs, next_counter = walk(tags, 2, 1000)
        self.assertEqual(len(pairs), 1000)
        replays = [i for i in range(len(pairs)) if pairs[i] in pairs[:i]]
        self.assertEqual(len(replays), 95)  # every tenth from the 57th on
        for i in replays:
            self.assertEqual(pairs[i], pairs[i - 57])
            self.assertNotIn(i - 57, replays)
        last = {}
        for i, (tag, counter) in enumerate(pairs):
            if i in replays:
                continue
            if tag in last:
                self.assertEqual(counter, pairs[last[tag]][1] + 1)
                self.assertGreater(i - last[tag], connections_a_thread)
            last[tag] = i
        self.assertEqual(next_counter, max(c for _, c in pairs) + 1)
        again, _ = walk(tags, next_counter, 100)
        self.assertGreater(min(c for _, c in again), max(c for _, c in pairs))

    def test_threads_get_disjoint_tags(self):
        self.assertEqual(split(list(range(7)), 2), [[0, 2, 4, 6], [1, 3, 5]])

    def test_paths(self):
        self.assertEqual(serve_path("https://b.example/p/S?picc_data=AB&cmac=CD"),
                         "/v1/verify?url=https%3A%2F%2Fb.example%2Fp%2FS%3Fpicc_data%3DAB%26cmac%3DCD")
        self.assertEqual(sdm_backend_path("AB", "CD"), "/api/tag?picc_data=AB&cmac=CD")


class Recorder(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    paths = []

    def do_GET(self):
        Recorder.paths.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@unittest.skipUnless(CRYPTOGRAPHY and shutil.which("wrk"), "wrk or python3-cryptography missing (make test-deps)")
class LuaTests(unittest.TestCase):
    def test_each_thread_walks_its_own_file_in_order_and_counts_wraps(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        uid = bytes.fromhex("04DE5F1EACC040")
        pool = os.path.join(folder, "pool")
        for thread in (1, 2):
            write_pool(f"{pool}.{thread}", [(uid, f"/t{thread}")], [(0, c) for c in range(1, 4)],
                       lambda _: (bytes(16), bytes(16)), lambda prefix, picc, mac: f"{prefix}/{picc}", seed=thread)
        script = os.path.join(folder, "walk.lua")
        with open(script, "w") as f:
            f.write(LUA)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.shutdown)
        done = subprocess.run(["wrk", "-t2", "-c2", "-d1s", "-s", script, f"http://127.0.0.1:{server.server_port}",
                               "--", pool, "2"], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        result = figures(done.stdout)
        self.assertGreater(result["requests"], 6)
        self.assertGreater(result["wraps"], 0)
        for thread in (1, 2):
            files = open(f"{pool}.{thread}").read().split()
            seen = [p for p in Recorder.paths if p.startswith(f"/t{thread}/")]
            # In order round the file; wrk's check of the script at start takes thread 1's first path unsent.
            start = files.index(seen[0])
            self.assertIn(start, (0, 1) if thread == 1 else (0,))
            self.assertEqual(seen, ((files * (len(seen) + 2))[start:])[:len(seen)])
        self.assertEqual(result["non_2xx"], 0)


if __name__ == "__main__":
    # `make test` runs this after `make test-deps` with --require: there a missing tool is a failure, not a skip.
    if "--require" in sys.argv:
        sys.argv.remove("--require")
        missing = [name for name, there in (("python3-cryptography", CRYPTOGRAPHY), ("wrk", shutil.which("wrk")))
                   if not there]
        if missing:
            sys.exit(f"bench_sunload_test: {', '.join(missing)} missing after make test-deps")
    unittest.main()
