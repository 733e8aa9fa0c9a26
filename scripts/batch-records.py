#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Keeps the five-piece batch's per-balance records in the repository and prints the docs table.

Tables and covers do not outlive the machine they were made on, but each balance's figures must:
`save` splits an `egtmin-cli batch --json` report into docs/data/batch/NAME.json (one file per
finished balance, the machine it ran on added), replacing that balance's earlier record; `table`
prints the Markdown table of docs/benchmarks.md from every record, with totals against Syzygy.
A report of `batch --capture-resolved` also carries each balance's capture-resolved cover
(minimize_cr, check_cr and the cr_* figures); a record keeps them only when that cover is proven.

    egtmin-cli batch KNNvKP --data D --syzygy-sizes docs/syzygy-wdl-sizes.tsv --json > batch.json
    python3 scripts/batch-records.py save batch.json --note "other jobs alongside"
    python3 scripts/batch-records.py table [--write docs/benchmarks.md]
    python3 scripts/batch-records.py probe bench/*.json   # NAME.json: bench probe --balance NAME --json
"""
import argparse
import json
import os
import pathlib
import sys
import tempfile

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "data" / "batch"

# The capture-resolved cover's figures in a batch report (present when those stages were asked for).
CR_KEYS = ("minimize_cr", "cr_minimize_expected_peak_bytes", "cr_minimize_cpu_seconds", "cr_cubes", "cr_rule_draws",
           "cr_cover_bytes", "cr_search_positions", "cr_reused_standalone", "check_cr", "cr_checked_positions",
           "cr_probed_positions", "cr_mismatches")
CR_STAGES = ("minimize-cr:", "check-cr:")


def gen(r):
    """The generation time, or "on disk" for a table another run made (the batch self-checks it)."""
    return "on disk" if r["generate_seconds"] == 0 else secs(r["generate_seconds"])


def machine():
    """The host in general terms: CPU model, cores, memory."""
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return f"{os.cpu_count()}-core {model}, {round(mem / 2**30)} GiB"


def write_atomically(path, text):
    """Written whole or not at all: a temporary file beside it, renamed over it, with the mode the
    file had (a new one: readable by all, as git checks files out), not mkstemp's owner-only."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def cr_proven(r):
    """Whether the record's capture-resolved cover was made and found exact."""
    return (r.get("minimize_cr", {}).get("done") and r.get("check_cr", {}).get("done")
            and r.get("cr_mismatches") == 0)


def save(args):
    report = json.load(open(args.report))
    RECORDS.mkdir(parents=True, exist_ok=True)
    kept = 0
    for r in report["balances"]:
        stages = [r["table"]["done"], r["minimize"]["done"], r["check"]["done"]]
        # A capture-resolved stage that failed leaves the standalone cover's figures good.
        error = r.get("error", "")
        if not all(stages) or (error and not error.startswith(CR_STAGES)) or r["mismatches"]:
            print(f"{r['balance']}: not finished or not exact, not saved", file=sys.stderr)
            continue
        r.pop("error", None)
        if any(k in r for k in CR_KEYS) and not cr_proven(r):
            print(f"{r['balance']}: capture-resolved cover not finished or not exact, its figures not saved",
                  file=sys.stderr)
            for k in CR_KEYS:
                r.pop(k, None)
        r["machine"] = args.machine or machine()
        if args.note:
            r["note"] = args.note
        write_atomically(RECORDS / f"{r['balance']}.json", json.dumps(r, indent=1) + "\n")
        kept += 1
    print(f"{kept} record(s) saved under {RECORDS}")


def fmt(n):
    return f"{n:,}"


def secs(s):
    return f"{s:,.0f} s"


def gb(b):
    return f"{b / 1e9:.2f} GB"


def ratio(part, whole):
    return f"{part / whole:.3f}x" if part is not None and whole else "—"


def table_text():
    """The Markdown table of every record, its totals, and the machines with what ran beside each
    balance (a shared machine's times are longer)."""
    records = [json.load(open(p)) for p in sorted(RECORDS.glob("*.json"))]
    pawns = sum("P" in r["balance"] for r in records)
    cursed = sum(r["values"]["cursed_win"] + r["values"]["blessed_loss"] > 0 for r in records)
    lines = ["| balance | positions | win | cursed win | draw | blessed loss | loss | table (gen + self-check) "
             "| table peak | minimize | minimize peak | cubes | cover bytes | Syzygy WDL bytes | check: positions, mismatches (time) "
             "| capture-resolved cover bytes | capture-resolved / Syzygy WDL |",
             "|---|" + "---:|" * 16]
    cover = syzygy = cr_cover = cr_syzygy = cr_count = 0
    for r in records:
        v = r["values"]
        syz = r.get("syzygy_wdl_bytes")
        cr = r["cr_cover_bytes"] if cr_proven(r) else None
        if syz:
            cover += r["cover_bytes"]
            syzygy += syz
            if cr is not None:
                cr_cover += cr
                cr_syzygy += syz
                cr_count += 1
        lines.append(f"| {r['balance']} | {fmt(r['positions'])} | {fmt(v['win'])} | {fmt(v['cursed_win'])} | {fmt(v['draw'])} "
                     f"| {fmt(v['blessed_loss'])} | {fmt(v['loss'])} "
                     f"| {gen(r)} + {secs(r['self_check_seconds'])} | {gb(r['table']['peak_bytes'])} "
                     f"| {secs(r['minimize']['seconds'])} | {gb(r['minimize']['peak_bytes'])} | {fmt(r['cubes'])} "
                     f"| {fmt(r['cover_bytes'])} | {fmt(syz) if syz else '—'} "
                     f"| {fmt(r['checked_positions'])}, {r['mismatches']} ({secs(r['check']['seconds'])}) "
                     f"| {fmt(cr) if cr is not None else '—'} | {ratio(cr, syz)} |")
    lines.append("")
    lines.append(f"{len(records)} balances ({pawns} with pawns, {cursed} with cursed wins or blessed losses); "
                 f"covers {fmt(cover)} bytes against Syzygy's {fmt(syzygy)}"
                 + (f" ({cover / syzygy:.3f}x)" if syzygy else "")
                 + (f"; capture-resolved covers of {cr_count} of them {fmt(cr_cover)} bytes against Syzygy's "
                    f"{fmt(cr_syzygy)} ({cr_cover / cr_syzygy:.3f}x)" if cr_syzygy else "") + ".")
    # Each note with the balances it was written for, so that a reader can tell which times a
    # shared machine stretched.
    machines = sorted({r.get("machine", "?") for r in records})
    by_note = {}
    for r in records:
        if r.get("note"):
            by_note.setdefault(r["note"], []).append(r["balance"])
    lines.append("Measured on: " + "; ".join(machines) + "."
                 + (" What ran beside them, balance by balance (their times are longer for it): "
                    + "; ".join(f"{', '.join(names)} ({note})" for note, names in sorted(by_note.items(), key=lambda kv: kv[1]))
                    + "." if by_note else ""))
    return "\n".join(lines)


# The table's first line and the line that ends it, as they stand in docs/benchmarks.md.
TABLE_HEAD = "| balance | positions | win | cursed win |"
TABLE_LAST = "Measured on:"


def table(args):
    text = table_text()
    if not args.write:
        print(text)
        return
    path = pathlib.Path(args.write)
    try:
        doc = path.read_text()
    except OSError as e:
        sys.exit(f"batch-records: cannot read {path}: {e.strerror}")
    a = doc.find(TABLE_HEAD)
    b = doc.find(TABLE_LAST, a) if a >= 0 else -1
    if b < 0:
        sys.exit(f"batch-records: no batch table in {path} (a line starting '{TABLE_HEAD}' followed by "
                 f"'{TABLE_LAST}')")
    e = doc.find("\n", b)
    write_atomically(path, doc[:a] + text + (doc[e:] if e >= 0 else "\n"))


def probe_table(args):
    """One row per `bench probe --balance NAME --json` report: what each position was checked
    against (Fathom, or the exact table where there is no Syzygy file), the mismatches, and each
    method's batch mean."""
    print("| balance | positions | checked against | mismatches | indexed batch mean | indexed, per round "
          "| linear batch mean (first 2,000) | Fathom batch mean | indexed / Fathom, per round |")
    print("|---|---:|---|---:|---:|---|---:|---:|---|")
    for path in args.reports:
        with open(path) as f:
            j = json.load(f)
        m = j["methods"]
        name = pathlib.Path(path).stem
        ix, lin, fa = m["indexed"], m["linear"], m.get("fathom")  # Fathom only against Syzygy
        rounds = ", ".join(f"{x:.1f}" for x in ix["round_batch_mean_ns"])
        ratios = ", ".join(f"{x:.3f}" for x in j.get("round_indexed_to_fathom", [])) or "—"
        print(f"| {name} | {fmt(j['positions'])} | {'Fathom' if j['anchor'] == 'fathom' else 'table'} "
              f"| {j['mismatches']} | {ix['batch_mean_ns']:.1f} ns | {rounds} "
              f"| {lin['batch_mean_ns']:,.0f} ns | " + (f"{fa['batch_mean_ns']:.1f} ns" if fa else "—") + f" | {ratios} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save", help="split a batch --json report into per-balance records")
    s.add_argument("report")
    s.add_argument("--machine", help="describe the host (default: read from /proc)")
    s.add_argument("--note", help="conditions of the run, e.g. other jobs alongside")
    s.set_defaults(func=save)
    t = sub.add_parser("table", help="print the docs table from the records")
    t.add_argument("--write", metavar="FILE", help="replace the table in FILE (docs/benchmarks.md) instead of printing it")
    t.set_defaults(func=table)
    b = sub.add_parser("probe", help="print the per-balance probe table from `bench probe --balance NAME --json` reports")
    b.add_argument("reports", nargs="+")
    b.set_defaults(func=probe_table)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
