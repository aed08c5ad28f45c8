#!/usr/bin/env python3
"""Redraw a Custody sample from its frame and seed, without Custody.

An independent implementation of src/examination/sampling/PROCEDURE.md, standard library only.
Prints the members in draw order, one per line (with --digests, the frame and manifest
digests first). Compare them with the sample report.

  redraw-sample.py --frame ids.txt --seed S --n 150 --method simple
  redraw-sample.py --strata strata.csv --seed S --n 150            (proportional)
  redraw-sample.py --strata strata.csv --seed S --sizes sizes.csv  (explicit sizes)
"""
import argparse, csv, hashlib, json, sys


def jcs(value):  # RFC 8785 for strings, lists and ASCII-keyed objects (PROCEDURE.md §1)
    return json.dumps(value, ensure_ascii=False, separators=(',', ':'), sort_keys=True).encode()


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def check(text, what):
    if not text or any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF for c in text):
        sys.exit(f'redraw-sample: {what} {text!r} is empty or not printable')
    return text


def canonical(ids):
    ids = sorted(check(i, 'unit id') for i in ids)  # Python sorts str by code point
    if len(set(ids)) != len(ids):
        sys.exit('redraw-sample: a unit id is listed twice')
    return ids


def stream(seed, frame_digest_hex):  # §2: SHA-256 in counter mode, four uint64 per block
    prefix = seed.encode() + b'\x00' + bytes.fromhex(frame_digest_hex)
    i = 0
    while True:
        block = hashlib.sha256(prefix + i.to_bytes(8, 'big')).digest()
        for k in range(4):
            yield int.from_bytes(block[8 * k:8 * k + 8], 'big')
        i += 1


def uniform(values, m):  # §3: reject v >= floor(2^64 / m) * m
    limit = (2**64 // m) * m
    while True:
        v = next(values)
        if v < limit:
            return v % m


def simple(units, n, seed, digest):  # §4: partial Fisher-Yates
    a, values = list(units), stream(seed, digest)
    for j in range(n):
        r = j + uniform(values, len(a) - j)
        a[j], a[r] = a[r], a[j]
    return a[:n]


def systematic(units, n, seed, digest):  # §5
    if n == 0:
        return []
    r = uniform(stream(seed, digest), len(units))
    return [units[(r + j * len(units)) // n] for j in range(n)]


def allocate(strata, total):  # §6: largest remainder, ties by stratum name
    big_n = sum(len(u) for u in strata.values())
    size = {h: total * len(u) // big_n if big_n else 0 for h, u in strata.items()}
    rem = {h: total * len(u) % big_n if big_n else 0 for h, u in strata.items()}
    for h in sorted(strata, key=lambda h: (-rem[h], h))[:total - sum(size.values())]:
        size[h] += 1
    return size


def read_csv(path):
    with open(path, encoding='utf-8', newline='') as f:
        rows = [row for row in csv.reader(f) if row]
    if any(len(row) != 2 for row in rows):
        sys.exit(f'redraw-sample: every row of {path} must have two columns')
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--frame', help='unit ids, UTF-8, one per line')
    p.add_argument('--strata', help='CSV rows stratum,id (stratified)')
    p.add_argument('--sizes', help='CSV rows stratum,size (stratified, explicit sizes)')
    p.add_argument('--seed', required=True)
    p.add_argument('--n', type=int, help='sample size (stratified: total, allocated proportionally)')
    p.add_argument('--method', choices=['simple', 'systematic'], default='simple')
    p.add_argument('--digests', action='store_true', help='first print frame and manifest digests')
    a = p.parse_args()
    seed = check(a.seed, 'seed')
    sys.stdout.reconfigure(encoding='utf-8')
    if a.strata:
        strata = {}
        for name, unit in read_csv(a.strata):
            strata.setdefault(check(name, 'stratum'), []).append(unit)
        strata = {h: canonical(u) for h, u in strata.items()}
        if len(set().union(*strata.values())) != sum(map(len, strata.values())):
            sys.exit('redraw-sample: a unit is in two strata')
        if (a.sizes is None) == (a.n is None):
            sys.exit('redraw-sample: with --strata give exactly one of --n and --sizes')
        sizes = {h: int(k) for h, k in read_csv(a.sizes)} if a.sizes else allocate(strata, a.n)
        if set(sizes) != set(strata) or any(not 0 <= sizes[h] <= len(strata[h]) for h in strata):
            sys.exit('redraw-sample: sizes must name every stratum, each within its size')
        pairs, members = [], []
        for h in sorted(strata):
            digest = sha256_hex(jcs(strata[h]))
            pairs.append([h, digest])
            members += simple(strata[h], sizes[h], seed + '/' + h, digest)
        method, frame_digest = 'stratified', sha256_hex(jcs(pairs))
    else:
        if not a.frame:
            p.error('give --frame (with --method) or --strata')
        with open(a.frame, encoding='utf-8') as f:
            units = canonical(line for line in f.read().split('\n') if line)  # CRLF read as LF
        if a.n is None or not 0 <= a.n <= len(units):
            sys.exit(f'redraw-sample: --n must be between 0 and {len(units)}')
        frame_digest = sha256_hex(jcs(units))
        members = (simple if a.method == 'simple' else systematic)(units, a.n, seed, frame_digest)
        method = a.method
    if a.digests:
        manifest = {'method': method, 'frameDigest': frame_digest, 'seed': seed, 'members': members}
        print('frame-digest', frame_digest)
        print('manifest-digest', sha256_hex(jcs(manifest)))
    for member in members:
        print(member)


if __name__ == '__main__':
    main()
