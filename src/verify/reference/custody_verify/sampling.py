"""The sample, redrawn from its frame and seed exactly as src/examination/sampling/PROCEDURE.md
specifies (the section numbers below are that page's). Anyone can repeat this without Custody."""
import hashlib

from .bag import jcs


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def frame_digest(ids):
    """Section 1: SHA-256 of the canonical JSON of the ids sorted by code point."""
    return sha256_hex(jcs(sorted(ids)))


def stream(seed, digest_hex):
    """Section 2: block_i = SHA-256(seed || 0x00 || frame digest || uint64_be(i)), four uint64 each."""
    prefix = seed.encode("utf-8") + b"\x00" + bytes.fromhex(digest_hex)
    i = 0
    while True:
        block = hashlib.sha256(prefix + i.to_bytes(8, "big")).digest()
        for k in range(4):
            yield int.from_bytes(block[8 * k:8 * k + 8], "big")
        i += 1


def uniform(values, m):
    """Section 3: a uniform integer in [0, m), rejecting v >= floor(2^64 / m) * m."""
    limit = (2 ** 64 // m) * m
    while True:
        v = next(values)
        if v < limit:
            return v % m


def simple(units, n, seed, digest):
    """Section 4: partial Fisher-Yates over the canonical order."""
    a, values = list(units), stream(seed, digest)
    for j in range(n):
        r = j + uniform(values, len(a) - j)
        a[j], a[r] = a[r], a[j]
    return a[:n]


def systematic(units, n, seed, digest):
    """Section 5: one random start, then every N/n-th unit, in exact integers."""
    if n == 0:
        return []
    r = uniform(stream(seed, digest), len(units))
    return [units[(r + j * len(units)) // n] for j in range(n)]


def allocate(strata, total):
    """Section 6: largest-remainder (Hamilton) allocation, ties by stratum name."""
    big_n = sum(len(u) for u in strata.values())
    size = {h: total * len(u) // big_n if big_n else 0 for h, u in strata.items()}
    rem = {h: total * len(u) % big_n if big_n else 0 for h, u in strata.items()}
    for h in sorted(strata, key=lambda h: (-rem[h], h))[:total - sum(size.values())]:
        size[h] += 1
    return size


def redraw(frame_details, seed):
    """The draw from a `sample.frame` entry's details and the seed.
    Returns {"method", "frame_digest", "members" (draw order), "stratum_of", "manifest_digest"}."""
    plan = frame_details["sample"]
    method, n = plan["method"], plan["size"]
    stratum_of = {}
    if isinstance(frame_details.get("strata"), list):
        strata = {s["name"]: sorted(s["units"]) for s in frame_details["strata"]}
        sizes = allocate(strata, n)
        pairs, members = [], []
        for h in sorted(strata):
            digest = frame_digest(strata[h])
            pairs.append([h, digest])
            drawn = simple(strata[h], sizes[h], seed + "/" + h, digest)
            members += drawn
            stratum_of.update({m: h for m in drawn})
        method, digest = "stratified", sha256_hex(jcs(pairs))
    else:
        units = sorted(frame_details.get("frame", []))
        digest = frame_digest(units)
        members = (systematic if method == "systematic" else simple)(units, n, seed, digest)
    manifest = {"method": method, "frameDigest": digest, "seed": seed, "members": members}
    return {"method": method, "frame_digest": digest, "members": members, "stratum_of": stratum_of,
            "manifest_digest": sha256_hex(jcs(manifest))}
