"""B10's load: SUN tap URLs as an NTAG 424 DNA makes them, request pools with rising counters and replays, the wrk
Lua script that walks a pool, and the figures wrk prints through it.

The chip side of a tap, done here so that a 20 s run can have a few hundred thousand distinct genuine URLs (a tap
of the emulated chip or a `provision` process per URL would take longer than the run): PICC data = AES-128 of
PICCDataTag C7h ‖ UID ‖ SDMReadCtr (3 bytes, LSB first) ‖ 5 padding bytes under K1 (one block, IV 0); the MAC
= the odd bytes of AES-CMAC(CMAC(K2, 3C C3 00 01 00 80 ‖ UID ‖ SDMReadCtr), MAC input), the MAC input empty
(`"macInput": "empty"`, the layout of NXP's example URL and of sdm-backend's `picc_data`/`cmac`). The keys come
from `provision keys diversify`, and the tests check a URL against NXP's published example."""
import json
import random
import urllib.parse

PICC_DATA_TAG = 0xC7  # UID and SDMReadCtr mirrored, 7-byte UID
SESSION_MAC_PREFIX = bytes.fromhex("3CC300010080")


def cmac(key, data):
    from cryptography.hazmat.primitives.ciphers import algorithms  # Debian python3-cryptography (make test-deps)
    from cryptography.hazmat.primitives.cmac import CMAC
    mac = CMAC(algorithms.AES(key))
    mac.update(data)
    return mac.finalize()


def mint(uid, counter, k1, k2, padding):
    """The (PICC data, MAC) hex parameters of tag `uid`'s tap with read counter `counter`."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    ctr = counter.to_bytes(3, "little")
    encryptor = Cipher(algorithms.AES(k1), modes.ECB()).encryptor()
    picc = encryptor.update(bytes([PICC_DATA_TAG]) + uid + ctr + padding) + encryptor.finalize()
    mac = cmac(cmac(k2, SESSION_MAC_PREFIX + uid + ctr), b"")[1::2]
    return picc.hex().upper(), mac.hex().upper()


def walk(tags, first_counter, count, replay_every=10, replay_distance=57):
    """One wrk thread's pool of `count` taps as (tag index, counter) pairs.

    Fresh taps go round the thread's `tags` with counters rising from `first_counter`, so a tag's next tap comes
    `tags` requests after its last one (more than a thread's connections: the earlier tap has been answered). Every
    `replay_every`th entry from `replay_distance` on repeats the entry `replay_distance` back, a fresh tap answered
    by then (the distance is not a multiple of `replay_every`): a replay. Returns (pairs, next unused counter)."""
    pairs, fresh = [], 0
    for i in range(count):
        if i % replay_every == replay_every - 1 and i >= replay_distance:
            pairs.append(pairs[i - replay_distance])
            continue
        pairs.append((fresh % tags, first_counter + fresh // tags))
        fresh += 1
    return pairs, first_counter + (fresh + tags - 1) // tags


def split(items, threads):
    """The tags of each wrk thread: disjoint, so a tag's taps keep their order within one thread."""
    return [items[t::threads] for t in range(threads)]


def serve_path(url):
    return "/v1/verify?url=" + urllib.parse.quote(url, safe="")


def sdm_backend_path(picc, mac):
    return f"/api/tag?picc_data={picc}&cmac={mac}"


def write_pool(path, tags, pairs, keys, to_path, seed):
    """Writes one thread's request paths: `tags[i]` = (UID bytes, URL prefix or None), `keys(uid)` = (K1, K2),
    `to_path(prefix, picc, mac)` the request. The chip's padding bytes come from `seed`."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for index, counter in pairs:
            uid, prefix = tags[index]
            k1, k2 = keys(uid)
            picc, mac = mint(uid, counter, k1, k2, rng.randbytes(5))
            f.write(to_path(prefix, picc, mac) + "\n")


# Each wrk thread walks its own file (`POOL.1`, `POOL.2`, …) in order, wrapping round when it runs out (counted:
# the second time round every tap is a replay; wrk's check of the script at start takes thread 1's first path, which
# is never sent: a counter skipped, as a tap nobody verified). With a mean delay in ms as second argument each request
# waits a random delay of that mean (exponential, as independent taps arrive; rounded up or down at random to whole ms,
# keeping the mean): fewer requests a second on the same connections. A fixed delay would line the connections up: those
# answered together wait the same time and send together again, so the load comes in bursts.
LUA = r"""
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end
function init(args)
  paths, i, wrapped = {}, 0, 0
  for line in io.lines(args[1] .. "." .. id) do paths[#paths + 1] = line end
  n = #paths
  local mean = tonumber(args[2] or "0")
  if mean > 0 then
    math.randomseed(id)
    delay = function()
      local wait = -mean * math.log(1 - math.random())
      local whole = math.floor(wait)
      if math.random() < wait - whole then return whole + 1 end
      return whole
    end
  end
end
function request()
  i = i + 1
  if i > #paths then i, wrapped = 1, wrapped + 1 end
  return wrk.format("GET", paths[i])
end
function done(summary, latency, requests)
  local walked, wraps = 0, 0
  for _, t in ipairs(threads) do
    walked, wraps = walked + t:get("i") + t:get("wrapped") * t:get("n"), wraps + t:get("wrapped")
  end
  local e = summary.errors
  io.write(string.format('B10 {"requests": %d, "duration_us": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, "non_2xx": %d, "timeouts": %d, ' ..
    '"walked": %d, "wraps": %d}\n', summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max, e.connect, e.read, e.write, e.status, e.timeout,
    walked, wraps))
end
"""


def figures(stdout):
    """The figures `done` printed, with requests a second."""
    line = next(x for x in stdout.splitlines() if x.startswith("B10 {"))
    result = json.loads(line[4:])
    result["requests_per_s"] = result["requests"] / (result["duration_us"] / 1e6)
    return result
