"""Check 7: every table in data/tables/ is re-derived from the ledger entries and compared cell by
cell; the sample is redrawn; every reveal opens its commitment; the statistics are recomputed.

The rules come from LAYOUT.md, src/examination/sampling/PROCEDURE.md and the README. In short:
- items: each row's digest, size, type, path, delivery and source are those of the item's
  `ingestion` entry (and its delivery's `ingestion start`); `bag_path` and `withheld` are the
  exporter's choices, checked against the files by check 5.
- subjects: the `cataloguing` entries `subject.create|update|link|unlink|merge|split`, applied in
  ledger order; `items` is the exported items linked to the subject.
- samples: the `sample.frame`, `sample.seed` and `sample.manifest` entries; the members are
  redrawn from the frame and the seed.
- examinations: one row per submission (`examination.submit`), with the revealed answer once every
  assigned examiner's answer is revealed (`examination.reveal`), then the case's final answer:
  the adjudicator's (`examination.adjudicate`) or, when the examiners agree, their common answer.
- decisions.json: the `decision` entries that name an exported object.
- statistics-<sample>.json: recomputed from the final answers by stats.py.
"""
import hashlib
import re

from .bag import jcs

try:  # written alongside; until it is there, the statistics are listed as not covered
    from . import stats
except ImportError:  # pragma: no cover
    stats = None

SUBJECT_FIELDS = ["number_raw", "scheme_id", "number_normalised", "unit_id", "sex", "age_band",
                  "date_of_death", "date_of_photography", "notes"]
SUBJECT_COLUMNS = ["subject_id"] + SUBJECT_FIELDS + ["status", "merged_into", "items"]
ITEM_COLUMNS = ["item_id", "bag_path", "sha256", "size", "media_type", "original_path", "original_path_raw_hex",
                "delivery_id", "source_codename", "ingestion_seq", "withheld"]
ITEM_DERIVED = ITEM_COLUMNS[2:10]  # bag_path and withheld are the export's choices (check 5)
EXAM_HEADER = ["sample", "case", "examiner", "commitment", "submit_seq", "reveal_seq", "sex", "age_band"]


def action_of(entry):
    d = entry.get("details")
    return d.get("action") if isinstance(d, dict) else None


def same(a, b):
    """Equal, numbers within 1e-9 relative (|a-b| <= 1e-9 * max(1,|a|,|b|))."""
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    return a == b


class Derivation:
    """The ledger entries folded into the tables they determine. Every row remembers the seqs of
    the entries it rests on (`rests_on`), for the findings and for --explain."""

    def __init__(self, entries, exported_items):
        self.entries = entries
        self.rests_on = {}  # (table, row key) -> sorted seqs
        self._fold_catalogue()
        self._fold_examination()
        self.exported = list(exported_items)  # item ids in items.json order

    # -- cataloguing: units and subjects -------------------------------------------------------
    def _fold_catalogue(self):
        self.units, self.subjects, self.subject_of, self.subject_seqs = {}, {}, {}, {}
        for e in self.entries:
            if e.get("type") != "cataloguing":
                continue
            d, a, seq = e["details"], action_of(e), e["seq"]
            if a in ("unit.register", "unit.update") and isinstance(d.get("unit"), dict):
                u = d["unit"]
                row = self.units.setdefault(u.get("id"), {"name_en": None, "name_ar": None, "seqs": []})
                for k in ("name_en", "name_ar"):
                    if k in u:
                        row[k] = u[k] if isinstance(u[k], str) else None
                row["seqs"].append(seq)
            if not (isinstance(a, str) and a.startswith("subject.")):
                continue
            s = d.get("subject") if isinstance(d.get("subject"), dict) else {}
            sid, items = s.get("id"), [i for i in d.get("items", []) if isinstance(i, str)]
            touched = [sid]
            if a == "subject.create":
                self._create(sid, s)
            elif a == "subject.update" and sid in self.subjects:
                self.subjects[sid].update({k: (s[k] if isinstance(s[k], str) else None) for k in SUBJECT_FIELDS if k in s})
            elif a == "subject.unlink":
                for i in items:
                    self.subject_of.pop(i, None)
                items = []
            elif a == "subject.merge":
                for m in d.get("merged", []):
                    if m in self.subjects:
                        self.subjects[m].update(status="merged", merged_into=sid)
                    touched.append(m)
            elif a == "subject.split" and isinstance(d.get("new_subject"), dict):
                sid = d["new_subject"].get("id")
                self._create(sid, d["new_subject"])
                touched.append(sid)
            for i in items:  # link: an item belongs to one subject at a time
                self.subject_of[i] = sid
            for t in touched:
                self.subject_seqs.setdefault(t, []).append(seq)

    def _create(self, sid, s):
        row = {k: (s[k] if isinstance(s.get(k), str) else None) for k in SUBJECT_FIELDS}
        row.update(subject_id=sid, status="active", merged_into=None)
        self.subjects[sid] = row

    def unit_label(self, uid):
        u = self.units.get(uid)
        return None if u is None else (u["name_en"] or u["name_ar"] or None)

    # -- examination: samples, assignments, submissions, reveals, adjudications ---------------
    def _fold_examination(self):
        self.samples = {}
        for e in self.entries:
            if e.get("type") != "examination":
                continue
            d, a, seq = e["details"], action_of(e), e["seq"]
            sid = d["sample"]["id"] if a == "sample.frame" else d.get("sample")
            if a == "sample.frame":
                self.samples[sid] = {"frame": e, "seed": None, "manifest": None, "assigned": {}, "subs": {},
                                     "adjudications": {}, "seqs": [seq]}
                continue
            s = self.samples.get(sid)
            if s is None:
                continue
            s["seqs"].append(seq)
            if a == "sample.seed":
                s["seed"] = e
            elif a == "sample.manifest":
                s["manifest"] = e
            elif a == "examination.assign":
                # Version 2 names each case by its code, its id sealed; every later entry of the
                # plan names it by code too, until the close entry publishes the links.
                key = "code" if d.get("version") == 2 else "case"
                for c in d.get("cases", []):
                    s["assigned"].setdefault(c[key], []).extend(c.get("examiners", []))
            elif a == "examination.close":
                for link in d.get("cases") or []:
                    if isinstance(link, dict) and isinstance(link.get("code"), str) and isinstance(link.get("case"), str):
                        s.setdefault("links", {})[link["code"]] = link["case"]
            elif a == "examination.submit":
                s["subs"][(d["case"], d["examiner"])] = {"examiner": d["examiner"], "commitment": d.get("commitment"),
                                                         "submit_seq": seq, "reveal_seq": None, "answer": None, "salt": None}
            elif a == "examination.reveal":
                for r in d.get("answers", []):
                    sub = s["subs"].get((d.get("case"), r.get("examiner")))
                    if sub is not None:
                        sub.update(answer=r.get("answer"), salt=r.get("salt"), reveal_seq=seq, stated=r.get("commitment"))
            elif a == "examination.adjudicate":
                s["adjudications"][d.get("case")] = e
        for s in self.samples.values():
            self._link_cases(s)

    @staticmethod
    def _link_cases(s):
        """A closed plan's codes replaced by the subject or item ids its close entry links them to
        (src/ledger/examination-projection.ts, exam_case_links); an open plan keeps its codes."""
        links = s.get("links") or {}
        if not links:
            return
        assigned = {}
        for k, v in s["assigned"].items():
            assigned.setdefault(links.get(k, k), []).extend(v)
        s["assigned"] = assigned
        s["subs"] = {(links.get(c, c), x): v for (c, x), v in s["subs"].items()}
        s["adjudications"] = {links.get(c, c): v for c, v in s["adjudications"].items()}

    def codebook(self, sid):
        return self.samples[sid]["frame"]["details"]["sample"]["codebook"]

    def finding_codes(self, sid):
        return [f["code"] for f in self.codebook(sid)["definition"].get("findings", [])]

    def outcomes(self, sid):
        """Each case of the sample in manifest order, as src/examination/blind/outcomes.ts defines it."""
        s = self.samples[sid]
        members = s["manifest"]["details"]["members"] if s["manifest"] else []
        stratum_of = {}
        for st in (s["manifest"]["details"].get("strata", []) if s["manifest"] else []):
            stratum_of.update({m: st["name"] for m in st.get("members", [])})
        codes = self.finding_codes(sid)
        out = []
        for position, case in enumerate(members):
            examiners = s["assigned"].get(case, [])
            subs = sorted((v for (c, _x), v in s["subs"].items() if c == case), key=lambda v: v["submit_seq"])
            revealed = bool(examiners) and len(subs) == len(examiners) and all(v["reveal_seq"] is not None for v in subs)
            o = {"case": case, "position": position, "stratum": stratum_of.get(case), "examiners": examiners,
                 "subs": subs, "answers": None, "final": None, "adjudicated": False}
            if not revealed:
                o["status"] = "unassigned" if not examiners else "awaiting_submissions"
            else:
                o["answers"] = [{"examiner": v["examiner"], "answer": v["answer"]} for v in subs]
                adj = s["adjudications"].get(case)
                if adj is not None:
                    o["final"], o["adjudicated"] = adj["details"].get("final"), True
                elif len({flatten(a["answer"], codes) for a in o["answers"]}) == 1:
                    first = o["answers"][0]["answer"]
                    o["final"] = {k: first[k] for k in ("sex", "age_band", "findings") if k in first}
                o["status"] = "final" if o["final"] is not None else "awaiting_adjudication"
            out.append(o)
        return out

    def subject_for_case(self, sid, case):
        over = self.samples[sid]["frame"]["details"]["sample"].get("unit")
        return self.subjects.get(self.subject_of.get(case) if over == "items" else case)

    # -- the tables ------------------------------------------------------------------------
    def items(self):
        ingest, starts = {}, {}
        for e in self.entries:
            if e.get("type") == "ingestion" and len(e.get("items", [])) == 1:
                ingest.setdefault(e["items"][0], e)
            elif e.get("type") == "ingestion start":
                starts.setdefault(e["details"].get("delivery"), e)
        rows = {}
        for item_id in self.exported:
            e = ingest.get(item_id)
            if e is None:
                continue
            d = e["details"]
            start = starts.get(d.get("delivery"))
            rows[item_id] = {"item_id": item_id, "sha256": (e.get("objects") or [None])[0], "size": d.get("size"),
                             "media_type": d.get("media_type"), "original_path": d.get("path"),
                             "original_path_raw_hex": d.get("path_raw_hex"), "delivery_id": d.get("delivery"),
                             "ingestion_seq": e["seq"]}
            if start is not None:  # a withheld delivery start: its source cannot be derived, so it is not compared
                rows[item_id]["source_codename"] = start["details"].get("source")
            self.rests_on[("items", item_id)] = sorted({e["seq"]} | ({start["seq"]} if start else set()))
        return rows

    def subjects_table(self):
        linked = {}
        for item_id in self.exported:
            sid = self.subject_of.get(item_id)
            if sid is not None:
                linked.setdefault(sid, []).append(item_id)
        rows = {}
        for sid in sorted(linked):
            if sid in self.subjects:
                rows[sid] = dict(self.subjects[sid], items=linked[sid])
                self.rests_on[("subjects", sid)] = sorted(self.subject_seqs.get(sid, []))
        return rows

    def decisions(self, objects):
        """Examiners' `decision` entries that name one of the exported objects (by SHA-256), by seq."""
        rows = {}
        for e in self.entries:
            if e.get("type") == "decision" and set(e.get("objects", [])) & set(objects):
                d = e["details"]
                rows[e["seq"]] = {"seq": e["seq"], "subject": d.get("subject"), "objects": e.get("objects"),
                                  "decision": d.get("decision"), "note": d.get("note"), "actor": e.get("actor"), "time": e.get("time")}
                self.rests_on[("decisions", e["seq"])] = [e["seq"]]
        return rows

    def sample_ids(self):
        """The samples with a manifest whose members include an exported item or its subject."""
        exported = set(self.exported)
        subjects = {self.subject_of[i] for i in exported if i in self.subject_of}
        out = []
        for sid, s in self.samples.items():
            if s["manifest"] is None:
                continue
            over = s["frame"]["details"]["sample"].get("unit")
            if any(m in (exported if over == "items" else subjects) for m in s["manifest"]["details"]["members"]):
                out.append(sid)
        return out

    def sample_row(self, sid):
        s = self.samples[sid]
        f, plan = s["frame"]["details"], s["frame"]["details"]["sample"]
        m = s["manifest"]["details"] if s["manifest"] else {}
        stratum_of = {x: st["name"] for st in m.get("strata", []) for x in st.get("members", [])}
        self.rests_on[("samples", sid)] = [s["frame"]["seq"]] + [s[k]["seq"] for k in ("seed", "manifest") if s[k]]
        return {"id": sid, "name": plan.get("name"), "over": plan.get("unit"), "method": plan.get("method"),
                "by": plan.get("stratify"), "size": plan.get("size"), "population": plan.get("population"),
                "frame_size": f.get("frame_size"), "frame_digest": f.get("frame_digest"),
                "seed": s["seed"]["details"].get("seed") if s["seed"] else None,
                "manifest_digest": m.get("manifest_digest"),
                "codebook": {"version": plan["codebook"].get("version"), "digest": plan["codebook"].get("digest")},
                "entries": {"frame": s["frame"]["seq"], "seed": s["seed"]["seq"] if s["seed"] else None,
                            "manifest": s["manifest"]["seq"] if s["manifest"] else None},
                "strata": [{"name": st["name"], "frame_size": len(st.get("units", [])), "frame_digest": st.get("frame_digest")}
                           for st in f.get("strata", [])],
                "members": [{"case": c, "position": i, "stratum": stratum_of.get(c)} for i, c in enumerate(m.get("members", []))]}

    def examination_rows(self, sid):
        codes = self.finding_codes(sid)
        rows = {}
        base = list(self.rests_on.get(("samples", sid), []))
        for o in self.outcomes(sid):
            answers = {a["examiner"]: a["answer"] for a in (o["answers"] or [])}
            for v in o["subs"]:
                key = "%s/%s/%s" % (sid, o["case"], v["examiner"])
                rows[key] = dict(zip(EXAM_HEADER[:6], [sid, o["case"], v["examiner"], v["commitment"], v["submit_seq"], v["reveal_seq"]]),
                                 **cells(answers.get(v["examiner"]), codes))
                self.rests_on[("examinations", key)] = sorted(set(base + [v["submit_seq"]] + ([v["reveal_seq"]] if v["reveal_seq"] is not None else [])))
            if o["final"] is not None:
                who = "(adjudicated)" if o["adjudicated"] else "(unanimous)"
                key = "%s/%s/%s" % (sid, o["case"], who)
                rows[key] = dict(zip(EXAM_HEADER[:6], [sid, o["case"], who, None, None, None]), **cells(o["final"], codes))
                adj = self.samples[sid]["adjudications"].get(o["case"])
                self.rests_on[("examinations", key)] = sorted(set(base + [v["submit_seq"] for v in o["subs"]]
                                                                  + [v["reveal_seq"] for v in o["subs"]] + ([adj["seq"]] if adj else [])))
        return rows

    def statistics(self, sid):
        """The computed part of statistics-<sid>.json, by stats.recompute (contract section 4)."""
        row = self.sample_row(sid)
        sample = dict(row, codebook=dict(row["codebook"], definition=self.codebook(sid)["definition"]))
        cases = []
        for o in self.outcomes(sid):
            subj = self.subject_for_case(sid, o["case"])
            unit = (subj or {}).get("unit_id") or "unattributed"
            date = (subj or {}).get("date_of_death") or (subj or {}).get("date_of_photography")
            cases.append({"case": o["case"], "stratum": o["stratum"], "unit": unit,
                          "month": date[:7] if date and len(date) >= 7 else "undated",
                          "answers": o["answers"], "final": o["final"], "status": o["status"]})
        units = {uid: self.unit_label(uid) for uid in self.units}
        return stats.recompute(sample, cases, units)


def flatten(answer, codes):
    """The fields on which examiners can differ (src/examination/commitment/adjudication.ts):
    sex, age band, and each finding's value and regions (sorted, joined by ',')."""
    findings = answer.get("findings", {}) if isinstance(answer, dict) else {}
    out = [answer.get("sex"), answer.get("age_band")] if isinstance(answer, dict) else [None, None]
    for c in sorted(set(codes) | set(findings)):
        f = findings.get(c) or {}
        out += [f.get("value"), ",".join(sorted(f.get("regions") or []))]
    return tuple(out)


def cells(answer, codes):
    if answer is None:
        return dict({"sex": None, "age_band": None}, **{c: None for c in codes})
    return dict({"sex": answer.get("sex"), "age_band": answer.get("age_band")},
                **{c: (answer.get("findings", {}).get(c) or {}).get("value") for c in codes})


def opens(commitment, answer, salt):
    """A reveal opens its commitment: SHA-256(UTF-8(JCS(answer)) || salt) = commitment
    (src/examination/commitment/commit.ts, README "Blind examination")."""
    try:
        return isinstance(commitment, str) and hashlib.sha256(jcs(answer) + bytes.fromhex(salt)).hexdigest() == commitment \
            and len(salt) == 64
    except (TypeError, ValueError):
        return False


def csv_cell(value):
    """As core/csv.ts writes a cell: null is empty; text starting = + - @ TAB CR gets a leading '."""
    if value is None:
        return ""
    s = str(value)
    if isinstance(value, str) and re.match(r"^[=+\-@\t\r]", s):
        s = "'" + s
    return s
