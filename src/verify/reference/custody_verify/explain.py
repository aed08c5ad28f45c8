"""--explain '<bag path>#<JSON pointer>': one value of a table, as the bag has it and as the ledger
gives it, and the ledger entries it rests on. Exit 0 when they agree, 1 when not (or when the
entries are not all proven), 2 when the pointer names nothing."""
import csv
import io
import json

from . import tables
from .process import T, resolve

ROW_KEYS = {T + "items.json": ("items", lambda r: r.get("item_id")),
            T + "subjects.json": ("subjects", lambda r: r.get("subject_id")),
            T + "samples.json": ("samples", lambda r: r.get("id")),
            T + "decisions.json": ("decisions", lambda r: r.get("seq")),
            T + "examinations.json": ("examinations", lambda r: "%s/%s/%s" % (r.get("sample"), r.get("case"), r.get("examiner")))}


def explain(bag, target, derivation, derived, ledger, out=print):
    path, sep, pointer = target.partition("#")
    if not sep or (pointer and not pointer.startswith("/")):
        out("--explain wants '<bag path>#<JSON pointer>', e.g. 'data/tables/items.json#/0/size'")
        return 2
    if not bag.has(path):
        out("%s is not a file of this bag" % path)
        return 2
    doc = csv_as_json(bag, path) if path.endswith(".csv") else bag.json(path)
    json_path = path[:-4] + ".json" if path.endswith(".csv") else path
    try:
        value = resolve(doc, pointer)
    except KeyError:
        out("%s has nothing at %s" % (path, pointer))
        return 2
    if json_path not in derived:
        out("%s#%s = %s" % (path, pointer, json.dumps(value, ensure_ascii=False)))
        out("This file is not derived from the ledger: it is not covered by the signature, only by the manifests.")
        return 1
    tokens = pointer.split("/")[1:]
    seqs, want = [], None
    try:
        if json_path in ROW_KEYS:  # a table: row by its key, then the column
            kind, key_of = ROW_KEYS[json_path]
            if path.endswith(".csv"):
                key = key_of({k: (v[1:] if v.startswith("'") else v) for k, v in doc[int(tokens[0])].items()})
            else:
                key = key_of(doc[int(tokens[0])])
            want = resolve(derived[json_path][key], "/" + "/".join(tokens[1:])) if key in derived[json_path] else None
            if path.endswith(".csv") and len(tokens) == 2:
                want = ";".join(want) if isinstance(want, list) else tables.csv_cell(want)
            seqs = derivation.rests_on.get((kind, key), [])
        else:  # statistics-<sample>.json: the document recomputed
            want = resolve(derived[json_path], pointer)
            sid = json_path[len(T + "statistics-"):-len(".json")]
            seqs = sorted(set(derivation.samples.get(sid, {}).get("seqs", [])))
    except (KeyError, IndexError, ValueError):
        want = None
    agrees = tables.same(value, want)
    out("%s#%s" % (path, pointer))
    out("  in the bag:              %s" % json.dumps(value, ensure_ascii=False))
    out("  derived from the ledger: %s" % json.dumps(want, ensure_ascii=False))
    out("  %s" % ("they agree" if agrees else "they DISAGREE: the table is not what the ledger entries give"))
    unproven = [s for s in seqs if s not in ledger.proven]
    if seqs:
        out("  it rests on %d ledger entr%s:" % (len(seqs), "y" if len(seqs) == 1 else "ies"))
        for s in seqs[:40]:
            e = ledger.by_seq(s) or {}
            out("    seq %d  %s%s%s" % (s, e.get("type"), " " + str(tables.action_of(e)) if tables.action_of(e) else "",
                                        "" if s in ledger.proven else "  (NOT proven)"))
        if len(seqs) > 40:
            out("    ... and %d more" % (len(seqs) - 40))
        out("  Each of these lines of custody/ledger.jsonl is %s against the signed checkpoint (check 6)."
            % ("proven" if not unproven else "NOT all proven"))
    return 0 if agrees and not unproven else 1


def csv_as_json(bag, path):
    records = [r for r in csv.reader(io.StringIO(bag.text(path), newline="")) if r]
    return [dict(zip(records[0], r)) for r in records[1:]] if records else []
