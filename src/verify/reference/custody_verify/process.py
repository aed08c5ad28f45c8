"""Check 7, the comparisons: each table of the bag against the table derived from the ledger
(tables.py), cell by cell. A cell that differs is EXPORT_TABLE_MISMATCH naming the table (its bag
path), the row (item id, subject id, sample/case/examiner, or the JSON pointer of the object) and
the column; a row on one side only has column null."""
import csv
import io

from . import tables
from .people import check_people, check_reveal_rule
from .sampling import redraw

T = "data/tables/"


def check_process(bag, report, ledger):
    """Check 7. Returns (Derivation, derived documents by bag path, not-covered list)."""
    report.step(7, "the process: tables re-derived from the ledger, sample redrawn, reveals opened, statistics recomputed, people's signatures checked")
    items_json = bag.json(T + "items.json", [])
    d = tables.Derivation(ledger.entries, [r.get("item_id") for r in items_json])
    derived = {}  # bag path -> {row key: row} (for --explain)

    items = d.items()
    derived[T + "items.json"] = compare_rows(report, T + "items.json", items_json, "item_id", items, tables.ITEM_DERIVED)
    compare_csv(bag, report, T + "items.csv", "item_id", tables.ITEM_COLUMNS, items_json, items)

    subjects = d.subjects_table()
    if bag.has(T + "subjects.json") or subjects:
        bag_subjects = bag.json(T + "subjects.json", [])
        derived[T + "subjects.json"] = compare_rows(report, T + "subjects.json", bag_subjects, "subject_id", subjects, tables.SUBJECT_COLUMNS)
        compare_csv(bag, report, T + "subjects.csv", "subject_id", tables.SUBJECT_COLUMNS, bag_subjects, subjects)

    decisions = d.decisions({r["sha256"] for r in items.values()})
    if bag.has(T + "decisions.json") or decisions:
        derived[T + "decisions.json"] = compare_rows(report, T + "decisions.json", bag.json(T + "decisions.json", []), "seq",
                                                     decisions, ["seq", "subject", "objects", "decision", "note", "actor", "time"])

    sample_ids = d.sample_ids()
    check_samples(bag, report, d, sample_ids, derived)
    check_commitments(report, d, sample_ids)
    check_reveal_rule(report, ledger)
    check_people(report, ledger)

    exam_rows, codes = {}, []
    for sid in sample_ids:
        exam_rows.update(d.examination_rows(sid))
        codes = codes or d.finding_codes(sid)
    if bag.has(T + "examinations.json") or exam_rows:
        bag_exams = bag.json(T + "examinations.json", [])
        for r in bag_exams:
            r["_key"] = "%s/%s/%s" % (r.get("sample"), r.get("case"), r.get("examiner"))
        columns = tables.EXAM_HEADER + codes
        derived[T + "examinations.json"] = compare_rows(report, T + "examinations.json", bag_exams, "_key", exam_rows, columns)
        compare_csv(bag, report, T + "examinations.csv", ("sample", "case", "examiner"), columns, bag_exams, exam_rows)

    not_covered = []
    for sid in sample_ids:
        path = T + "statistics-%s.json" % sid
        if not bag.has(path):
            report.add("EXPORT_TABLE_MISMATCH", "%s is missing: the sample's statistics are not in the bag" % path, path,
                       table=path, row=None, column=None, bag=None, derived="(the statistics)")
        elif tables.stats is None:
            not_covered.append(path + " (this verifier lacks custody_verify/stats.py)")
        else:
            derived[path] = check_statistics(bag, report, d, sid, path)
    for path in bag.files:
        if path.startswith(T + "statistics-") and path not in derived and not any(n.startswith(path) for n in not_covered):
            report.add("EXPORT_TABLE_MISMATCH", "%s is the statistics of no exported sample" % path, path,
                       table=path, row=None, column=None, bag="(a file)", derived=None)

    derived_paths = set(derived) | {T + "items.csv", T + "subjects.csv", T + "examinations.csv"}
    for path in bag.files:
        if path.startswith(T) and path not in derived_paths and not path.startswith(T + "statistics-"):
            not_covered.append(path)
    not_covered += [T + "statistics-*.json#/unit_attribution", T + "items.json: bag_path and withheld (checked against the files by check 5)",
                    "custody/events.json", "custody/withheld.json (the reasons)", "custody/export.json (the selection query)",
                    "custody/withheld-entries.json (each withheld entry's stated type and action)"]
    report.detail("not covered by the signature (checked against the manifests only): " + "; ".join(not_covered))
    return d, derived, not_covered


def compare_rows(report, table, bag_rows, key, derived_rows, columns):
    """Rows keyed by `key`; every column of `columns` that the derived row has is compared."""
    seen = set()
    for index, row in enumerate(bag_rows):
        k = row.get(key)
        if k in seen or k not in derived_rows:
            mismatch(report, table, k, None, "(row %d)" % index, None, "this row is not derived from any ledger entry" if k not in seen else "this row appears twice")
            seen.add(k)
            continue
        seen.add(k)
        want = derived_rows[k]
        for c in columns:
            if c in want and not tables.same(row.get(c), want[c]):
                mismatch(report, table, k, c, row.get(c), want[c])
    for k in derived_rows:
        if k not in seen:
            mismatch(report, table, k, None, None, "(row)", "the ledger entries give this row; the table lacks it")
    return derived_rows


def mismatch(report, table, row, column, bag_value, derived_value, why=None):
    text = why or "the bag has %s, the ledger gives %s" % (short(bag_value), short(derived_value))
    report.add("EXPORT_TABLE_MISMATCH", "%s, row %s%s: %s" % (table, row, "" if column is None else ", column %s" % column, text),
               table, table=table, row=row, column=column, bag=bag_value, derived=derived_value)


def short(v):
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def compare_csv(bag, report, path, key, columns, bag_rows, derived_rows):
    """The CSV twin of a JSON table: same header, and each cell as core/csv.ts writes the value."""
    if not bag.has(path):
        return
    records = [r for r in csv.reader(io.StringIO(bag.text(path), newline="")) if r]
    if not records or records[0] != list(columns):
        mismatch(report, path, "(header)", None, ",".join(records[0]) if records else None, ",".join(columns))
        return
    keys = key if isinstance(key, tuple) else (key,)
    by_key = {tuple(r.get(k) for k in keys): r for r in bag_rows}
    seen = set()
    for rec in records[1:]:
        cells = dict(zip(columns, rec + [""] * (len(columns) - len(rec))))
        k = tuple(cells[c][1:] if cells[c].startswith("'") else cells[c] for c in keys)
        label = "/".join(k)
        seen.add(k)
        base = by_key.get(k)
        if base is None:
            mismatch(report, path, label, None, "(row)", None, "this row is in no table row derived from the ledger")
            continue
        want = dict(base, **derived_rows.get(label, {}))
        for c in columns:
            value = want.get(c)
            expected = ";".join(value) if isinstance(value, list) else tables.csv_cell(value)
            if cells[c] != expected:
                mismatch(report, path, label, c, cells[c], expected)
    for k in by_key:
        if k not in seen:
            mismatch(report, path, "/".join(map(str, k)), None, None, "(row)", "the CSV lacks this row")


def check_samples(bag, report, d, sample_ids, derived):
    """The members redrawn from frame and seed, against the manifest entry and samples.json."""
    rows = {}
    for sid in sample_ids:
        s = d.samples[sid]
        rows[sid] = d.sample_row(sid)
        if s["seed"] is None:
            report.add("EXPORT_SAMPLE_MISMATCH", "sample %s has no seed entry: it cannot be redrawn" % sid, "custody/ledger.jsonl",
                       sample=sid, position=None, bag=None, derived=None)
            continue
        draw = redraw(s["frame"]["details"], s["seed"]["details"]["seed"])
        m = s["manifest"]["details"]
        if draw["frame_digest"] != s["frame"]["details"].get("frame_digest"):
            report.add("EXPORT_SAMPLE_MISMATCH", "sample %s: the frame's units do not give the frame digest recorded with them" % sid,
                       "custody/ledger.jsonl", sample=sid, position=None, bag=s["frame"]["details"].get("frame_digest"), derived=draw["frame_digest"])
        if draw["manifest_digest"] != m.get("manifest_digest") and draw["members"] == m.get("members"):
            report.add("EXPORT_SAMPLE_MISMATCH", "sample %s: the manifest digest is not that of the redrawn sample" % sid,
                       "custody/ledger.jsonl", sample=sid, position=None, bag=m.get("manifest_digest"), derived=draw["manifest_digest"])
        member_diffs(report, sid, "the manifest entry (seq %d)" % s["manifest"]["seq"], "custody/ledger.jsonl", m.get("members", []), draw["members"])
    bag_samples = bag.json(T + "samples.json", [])
    seen = set()
    for index, row in enumerate(bag_samples):
        sid = row.get("id")
        seen.add(sid)
        if sid not in rows:
            mismatch(report, T + "samples.json", sid, None, "(row %d)" % index, None, "this sample is not derived from the ledger")
            continue
        want = rows[sid]
        for c, v in want.items():
            if c == "members":
                member_diffs(report, sid, T + "samples.json", T + "samples.json",
                             [(x or {}).get("case") for x in row.get("members", [])], [x["case"] for x in v])
                for i, (got, exp) in enumerate(zip(row.get("members", []), v)):
                    for k in ("position", "stratum"):
                        if (got or {}).get(k) != exp[k]:
                            mismatch(report, T + "samples.json", "/%d/members/%d" % (index, i), k, (got or {}).get(k), exp[k])
            elif c == "strata":
                if [{k: x.get(k) for k in ("name", "frame_size", "frame_digest")} for x in row.get("strata", [])] != v:
                    mismatch(report, T + "samples.json", sid, c, row.get(c), v)
            elif not tables.same(row.get(c), v):
                mismatch(report, T + "samples.json", sid, c, row.get(c), v)
    for sid in rows:
        if sid not in seen:
            mismatch(report, T + "samples.json", sid, None, None, "(row)", "the ledger gives this sample; samples.json lacks it")
    derived[T + "samples.json"] = rows


def member_diffs(report, sid, where, path, bag_members, derived_members):
    diffs = [i for i in range(max(len(bag_members), len(derived_members)))
             if (bag_members[i:i + 1] or [None]) != (derived_members[i:i + 1] or [None])]
    for i in diffs[:10]:
        got = bag_members[i] if i < len(bag_members) else None
        exp = derived_members[i] if i < len(derived_members) else None
        report.add("EXPORT_SAMPLE_MISMATCH", "sample %s, position %d: %s has %s, the redraw from frame and seed gives %s"
                   % (sid, i, where, got, exp), path, sample=sid, position=i, bag=got, derived=exp)
    if len(diffs) > 10:
        report.say("  ... and %d more positions differ" % (len(diffs) - 10))


def check_commitments(report, d, sample_ids):
    """Every revealed answer opens the commitment of its submission."""
    count = 0
    for sid in sample_ids:
        for (case, examiner), v in sorted(d.samples[sid]["subs"].items()):
            if v["reveal_seq"] is None:
                continue
            count += 1
            stated = v.get("stated")
            if not tables.opens(v["commitment"], v["answer"], v["salt"]) or (stated is not None and stated != v["commitment"]):
                report.add("EXPORT_COMMITMENT_MISMATCH", "sample %s, case %s: %s's revealed answer (entry %d) does not open the commitment "
                           "of the submission (entry %d)" % (sid, case, examiner, v["reveal_seq"], v["submit_seq"]),
                           "custody/ledger.jsonl", sample=sid, case=case, examiner=examiner, reveal_seq=v["reveal_seq"], submit_seq=v["submit_seq"])
    report.detail("%d revealed answers checked against their commitments" % count)


def check_statistics(bag, report, d, sid, path):
    """The statistics recomputed from the final answers (stats.py), and the document's other fields."""
    doc = bag.json(path)
    derived = d.statistics(sid)
    for pointer, got, exp in tables.stats.compare(doc, derived, path):
        row, _, column = pointer.rpartition("/")
        report.add("EXPORT_TABLE_MISMATCH", "%s, %s: the bag has %s, recomputed from the final answers %s" % (path, pointer, short(got), short(exp)),
                   path, table=path, row=row or "/", column=column, bag=got, derived=exp)
    row = d.sample_row(sid)
    expect = {"/sample/id": sid, "/sample/name": row["name"], "/sample/unit": row["over"], "/sample/method": row["method"],
              "/sample/stratify": row["by"], "/sample/size": row["size"], "/sample/frame_size": row["frame_size"],
              "/sample/frame_digest": row["frame_digest"], "/sample/seed": row["seed"], "/sample/manifest_digest": row["manifest_digest"],
              "/sample/entries": row["entries"], "/codebook": row["codebook"]}
    for pointer, want in expect.items():
        try:
            got = resolve(doc, pointer)
        except KeyError:
            got = "(absent)"
        if not tables.same(got, want):
            parent, _, column = pointer.rpartition("/")
            report.add("EXPORT_TABLE_MISMATCH", "%s, %s: the bag has %s, the ledger gives %s" % (path, pointer, short(got), short(want)),
                       path, table=path, row=parent or "/", column=column, bag=got, derived=want)
    out = dict(derived)
    out.update({"sample": dict(doc.get("sample", {}), **{p.split("/")[2]: v for p, v in expect.items() if p.startswith("/sample/")}),
                "codebook": row["codebook"]})
    return out


def resolve(doc, pointer):
    """RFC 6901: the value at `pointer` in `doc`; KeyError when there is none."""
    if pointer == "":
        return doc
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, list):
            if not token.isdigit() or int(token) >= len(doc) or (token != "0" and token.startswith("0")):
                raise KeyError(pointer)
            doc = doc[int(token)]
        elif isinstance(doc, dict):
            if token not in doc:
                raise KeyError(pointer)
            doc = doc[token]
        else:
            raise KeyError(pointer)
    return doc
