#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The project's results: JSON records under docs/data, and the pages written from them.

Every figure in docs/results.md (and its appendices docs/results-4piece.md and
docs/results-5piece.md) comes from a record
under docs/data/KIND/NAME.json; this script makes the records and writes the pages, and a test
(`docs.results_up_to_date`) fails when a page is not what the records give.

    python3 scripts/results.py record gen pieces4 --beside "nothing" -- \\
        build/app/egtmin-cli gen --pieces 4 --data data --json
    python3 scripts/results.py rerun --beside "nothing"   # every 2-4-piece record's command again
    python3 scripts/results.py save-batch batch.json --note "other jobs alongside"
    python3 scripts/results.py write                      # docs/results*.md from the records
    python3 scripts/results.py check                      # exit 1 when a page is out of date
    python3 scripts/results.py probe bench/*.json         # per-balance table of bench probe reports

`record` runs the command from the repository's root (so that its paths are the repository's:
build/app/egtmin-cli, data, ../shared/syzygy), keeps what it prints with --json as `result`, and
adds the command, the machine (cores, memory, CPU model), what ran beside it, its wall time and
its peak resident memory. `save-batch` splits an `egtmin-cli batch --json` report into one
record per five-piece balance under docs/data/batch whose table is done and at least one of whose
covers (standalone, capture-resolved) is proven exact; a cover not proven leaves none of its
figures. The new record replaces that balance's earlier file whole: figures of a cover the report
does not hold are not carried over.
"""
import argparse
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "data"
RECORDS = DATA / "batch"
RESULTS = ROOT / "docs" / "results.md"
APPENDIX = ROOT / "docs" / "results-5piece.md"
APPENDIX_SMALL = ROOT / "docs" / "results-4piece.md"
SYZYGY_SIZES = ROOT / "docs" / "syzygy-wdl-sizes.tsv"
README = ROOT / "README.md"
# README quotes the results page's headline on the line that starts with this.
README_LINE = "**Results** ([docs/results.md](docs/results.md)): "
FIVE_PIECE_BALANCES = 110  # every 5-piece balance Syzygy has a WDL file for

# The order `rerun` runs the kinds in: a kind may need what an earlier one made (tables, covers).
KIND_ORDER = ("gen", "verify", "minimize", "size", "probe", "engine", "pipeline")


# --- the machine and the files -----------------------------------------------------------------

def machine():
    """The host in general terms: cores, memory in GiB, the CPU's model name."""
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
    return {"cores": os.cpu_count(), "memory_gib": round(mem / 2**30), "cpu": model}


def machine_text(m):
    """A record's machine in words; batch records carry it as text already."""
    if isinstance(m, str):
        return m
    return f"{m['cores']}-core {m['cpu']}, {m['memory_gib']} GiB"


def write_atomically(path, text):
    """Written whole or not at all: a temporary file beside it, renamed over it, with the mode the
    file had (a new one: readable by all, as git checks files out), not mkstemp's owner-only."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def load(path):
    with open(path) as f:
        return json.load(f)


# --- record, rerun -----------------------------------------------------------------------------

def run_and_record(kind, name, argv, beside):
    """Runs argv from the repository's root and writes docs/data/KIND/NAME.json. Its stdout must be
    the command's JSON; stderr (progress) passes through."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"results: cannot run `{shlex.join(argv)}`: {e.strerror}")
    out = proc.stdout.read()
    # wait4 gives this child's own peak resident memory (getrusage would give the largest of all).
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"results: `{shlex.join(argv)}` exited with {proc.returncode}; no record written")
    try:
        result = json.loads(out)
    except json.JSONDecodeError as e:
        sys.exit(f"results: `{shlex.join(argv)}` did not print JSON ({e}); give the command --json")
    peak = usage.ru_maxrss * 1024
    # An engine report lists every position's searches: the totals are what the pages use.
    if kind == "engine":
        result.pop("results", None)
    if kind == "gen" and result.get("already_present"):
        sys.exit(f"results: `{shlex.join(argv)}` found {result['already_present']} table(s) already made and timed "
                 "only the rest; no record written (run it on a data directory without tables)")
    record = {"command": shlex.join(argv), "machine": machine(), "beside": beside,
              "wall_seconds": round(wall, 3), "peak_rss_bytes": peak, "result": result}
    path = DATA / kind / f"{name}.json"
    write_atomically(path, json.dumps(record, indent=1) + "\n")
    print(f"recorded {path.relative_to(ROOT)} ({wall:.0f} s)")


def record(args):
    argv = args.argv
    if not argv:
        sys.exit("results: record needs the command after --")
    if args.kind not in KIND_ORDER:
        sys.exit(f"results: kind must be one of {', '.join(KIND_ORDER)}")
    run_and_record(args.kind, args.name, argv, args.beside)


def rerun(args):
    """Runs every recorded command again, kind by kind in KIND_ORDER, and replaces its record."""
    kinds = args.kinds or KIND_ORDER
    for kind in KIND_ORDER:
        if kind not in kinds:
            continue
        for path in sorted((DATA / kind).glob("*.json")):
            argv = shlex.split(load(path)["command"])
            print(f"{kind}/{path.stem}: {shlex.join(argv)}", file=sys.stderr)
            if not args.dry_run:
                run_and_record(kind, path.stem, argv, args.beside)



# --- the five-piece batch's records (save-batch) ---------------------------------------------

# Each cover's figures in a batch report: a report lists a cover's stages and results when the run
# asked for that cover (`batch --covers standalone|capture-resolved|both`) or its stages were done.
STANDALONE_KEYS = ("minimize", "minimize_expected_peak_bytes", "minimize_cpu_seconds", "cubes", "rule_draws",
                   "split_inputs", "care_positions", "passes", "cover_bytes", "check", "checked_positions",
                   "mismatches")
CR_KEYS = ("minimize_cr", "cr_minimize_expected_peak_bytes", "cr_minimize_cpu_seconds", "cr_cubes", "cr_rule_draws",
           "cr_cover_bytes", "cr_search_positions", "cr_reused_standalone", "check_cr", "cr_checked_positions",
           "cr_probed_positions", "cr_mismatches", "cr_successors")
# A report's error starts with the stage that failed ("check-cr: 3 mismatches ...").
STANDALONE_STAGES = ("minimize:", "check:")
CR_STAGES = ("minimize-cr:", "check-cr:")


def standalone_proven(r):
    """Whether the record's standalone cover was made and checked exact on every legal position."""
    return bool(r.get("minimize", {}).get("done") and r.get("check", {}).get("done") and r.get("mismatches") == 0)


def cr_proven(r):
    """Whether the record's capture-resolved cover was made and found exact."""
    return bool(r.get("minimize_cr", {}).get("done") and r.get("check_cr", {}).get("done")
                and r.get("cr_mismatches") == 0)


def keep_earlier_cover(r, path):
    """Keeps the proven cover of the balance's earlier record that the new report lacks (a run asked
    for the capture-resolved cover only leaves the standalone one's figures standing), when both
    records hold the same table; the kept cover's machine and note go with it, under
    `earlier_covers`, since the record's own are the new run's."""
    try:
        old = load(path)
    except (OSError, json.JSONDecodeError):
        return
    if (old.get("positions"), old.get("values")) != (r.get("positions"), r.get("values")):
        return
    for cover, keys, proven in (("standalone", STANDALONE_KEYS, standalone_proven),
                                ("capture-resolved", CR_KEYS, cr_proven)):
        if proven(r) or not proven(old):
            continue
        for k in keys:
            if k in old:
                r[k] = old[k]
        earlier = next((e for e in old.get("earlier_covers", []) if e["cover"] == cover),
                       {"cover": cover, "machine": old.get("machine", "?"), "note": old.get("note", "not recorded")})
        r.setdefault("earlier_covers", []).append(earlier)


def save_batch(args):
    """One record per five-piece balance whose table is done and at least one of whose covers is
    proven; a cover not proven (or whose stage failed) leaves none of its figures, the other
    cover's stay. The record replaces that balance's file, keeping an earlier proven cover the
    report does not hold (keep_earlier_cover)."""
    report = load(args.report)
    RECORDS.mkdir(parents=True, exist_ok=True)
    kept = smaller = 0
    for r in report.get("balances", []):
        name = r.get("balance", "?")
        if pieces_of(name) != 5:
            smaller += 1  # a --pieces 5 run reports the 2-4-piece balances it made on the way too
            continue
        error = r.pop("error", "")
        # A cover's failed stage leaves the other cover's figures good; any other failure (the
        # table, the comparison with Syzygy, the batch's own record) leaves nothing to keep.
        failed = ("standalone" if error.startswith(STANDALONE_STAGES) else
                  "capture-resolved" if error.startswith(CR_STAGES) else "table" if error else None)
        if not r.get("table", {}).get("done") or failed == "table" or r.get("syzygy_mismatches"):
            print(f"{name}: table not finished or not exact" + (f" ({error})" if error else "") + ", not saved",
                  file=sys.stderr)
            continue
        for cover, keys, proven in (("standalone", STANDALONE_KEYS, standalone_proven),
                                    ("capture-resolved", CR_KEYS, cr_proven)):
            if any(k in r for k in keys) and (failed == cover or not proven(r)):
                first_stage = "minimize" if cover == "standalone" else "minimize_cr"
                # A table a run made only for the balances it was asked for (batch --successors tables).
                made = failed == cover or r.get(first_stage, {}).get("done")
                print(f"{name}: {cover} cover " + ("not finished or not exact" if made else "not made by this run")
                      + (f" ({error})" if failed == cover else "") + ", its figures not saved", file=sys.stderr)
                for k in keys:
                    r.pop(k, None)
        if not standalone_proven(r) and not cr_proven(r):
            print(f"{name}: no cover proven, not saved", file=sys.stderr)
            continue
        r["machine"] = args.machine or machine_text(machine())
        if args.note:
            r["note"] = args.note
        keep_earlier_cover(r, RECORDS / f"{name}.json")
        write_atomically(RECORDS / f"{name}.json", json.dumps(r, indent=1) + "\n")
        kept += 1
    print(f"{kept} record(s) saved under {RECORDS.relative_to(ROOT)}"
          + (f"; {smaller} balance(s) of fewer pieces left out" if smaller else ""))


# --- formatting --------------------------------------------------------------------------------

def fmt(n):
    return f"{n:,}"


def secs(s):
    return f"{s:,.0f} s"


def gb(b):
    return f"{b / 1e9:.2f} GB"


def mb(b):
    return f"{b / 1e6:,.1f} MB" if b >= 1e6 else f"{b / 1e3:,.1f} kB"


def ratio(part, whole, digits=3):
    return f"{part / whole:.{digits}f}x" if part is not None and whole else "—"


def pieces_of(name):
    return sum(c in "KQRBNP" for c in name)


def alone(note):
    """Whether a batch record's note says the balance had the machine to itself."""
    return "to itself" in note and not any(w in note for w in ("beside", "alongside"))


def syzygy_sizes():
    """Syzygy's WDL file sizes by balance, from docs/syzygy-wdl-sizes.tsv (bytes, then FILE.rtbw)."""
    sizes = {}
    for line in SYZYGY_SIZES.read_text().splitlines()[1:]:
        size, name = line.split("\t")
        sizes[name.removesuffix(".rtbw")] = int(size)
    return sizes


def records(kind):
    return {p.stem: load(p) for p in sorted((DATA / kind).glob("*.json"))}


def batch_records():
    return [load(p) for p in sorted(RECORDS.glob("*.json"))]


# --- the five-piece appendix -------------------------------------------------------------------

def gen_cell(r):
    """The generation time, or "on disk" for a table another run made (the batch self-checks it)."""
    return "on disk" if r["generate_seconds"] == 0 else secs(r["generate_seconds"])


def table_seconds(r):
    return r["generate_seconds"] + r["self_check_seconds"]


def cpu_of_minimize_cr(r):
    """The minimize-cr stage's CPU seconds; a record made before stages reported theirs has the
    minimization's own; None when neither is known."""
    return r["minimize_cr"].get("cpu_seconds", r.get("cr_minimize_cpu_seconds"))


def cpu_of_minimize(r):
    """The same for the standalone cover's minimize stage."""
    return r["minimize"].get("cpu_seconds", r.get("minimize_cpu_seconds"))


def five_piece_balances(recs):
    """Every five-piece balance Syzygy has a WDL file for, with any recorded one it lacks: pawnless
    first, then by name."""
    names = {n for n in syzygy_sizes() if pieces_of(n) == 5} | {r["balance"] for r in recs}
    return sorted(names, key=lambda n: ("P" in n, n))


def syzygy_of(r, wdl):
    """A balance's Syzygy WDL bytes: from docs/syzygy-wdl-sizes.tsv, or as its record gives them."""
    return wdl.get(r["balance"]) or r.get("syzygy_wdl_bytes")


def layout_cell(r, syz):
    """The capture-resolved cover's probe layout, where the record has it (older ones do not), with
    the layout's format version where the record gives it (its bytes depend on it)."""
    lay = r.get("cr_layout_bytes")
    version = f", v{r['cr_layout_version']}" if r.get("cr_layout_version") else ""
    if r.get("cr_layout_framed"):
        version += ", framed"
    return f"{fmt(lay)} ({ratio(lay, syz)}{version})" if lay and syz else "—"


def current_layout_versions():
    """The layout versions whose bytes the current writer makes (kOldestCurrentLayoutVersion to
    kLayoutVersion in core/probe/probe_layout.hpp, the one place that defines them)."""
    header = (ROOT / "core" / "probe" / "probe_layout.hpp").read_text()
    def constant(name):
        m = re.search(rf"inline constexpr uint32_t {name} = (\d+);", header)
        if not m:
            sys.exit(f"results: {name} not found in core/probe/probe_layout.hpp")
        return int(m.group(1))
    return constant("kOldestCurrentLayoutVersion"), constant("kLayoutVersion")


def unread_framed_layout_version():
    """The layout version whose framed layouts the current reader refuses (kUnreadFramedLayoutVersion:
    their directory lay outside the frames), so a record of one is not current."""
    header = (ROOT / "core" / "probe" / "probe_layout.hpp").read_text()
    m = re.search(r"inline constexpr uint32_t kUnreadFramedLayoutVersion = (\d+);", header)
    return int(m.group(1)) if m else None


def layout_current(r):
    """Whether a record's capture-resolved layout is of a version the current writer makes."""
    oldest, newest = current_layout_versions()
    v = r.get("cr_layout_version") or 0
    return oldest <= v <= newest and not (r.get("cr_layout_framed") and v == unread_framed_layout_version())


def current_batch_layouts(recs, wdl):
    """The batch records whose capture-resolved cover is proven and whose layout is of a current
    version, each with a Syzygy WDL size to weigh it against; by balance."""
    return sorted((r for r in recs if cr_proven(r) and r.get("cr_layout_version") and wdl.get(r["balance"])
                   and layout_current(r)), key=lambda r: r["balance"])


def layout_totals(have, wdl):
    """The layouts' bytes, their Syzygy files' bytes, and the records whose layout is over its file."""
    return (sum(r["cr_layout_bytes"] for r in have), sum(wdl[r["balance"]] for r in have),
            [r for r in have if r["cr_layout_bytes"] > wdl[r["balance"]]])


def batch_layouts_text(recs, wdl):
    """The five-piece set's own records' capture-resolved layouts of the current format versions:
    a measurement that grows balance by balance, each layout written by the batch that made and
    proved its cover, where a size record needs every layout on disk at once."""
    have = current_batch_layouts(recs, wdl)
    if not have:
        return []
    oldest, newest = current_layout_versions()
    framed = sum(1 for r in have if r.get("cr_layout_framed"))
    lay, syz, over_recs = layout_totals(have, wdl)
    over = [f"{r['balance']} {ratio(r['cr_layout_bytes'], wdl[r['balance']])}" for r in over_recs]
    worst = max(have, key=lambda r: r["cr_layout_bytes"] / wdl[r["balance"]])
    return [f"The five-piece set's own records (`docs/data/batch`, [results-5piece.md](results-5piece.md)) give the "
            f"layout each batch wrote beside the cover it made and proved: of the current layout versions "
            f"({oldest}-{newest}, framed ones of {unread_framed_layout_version()} excepted; "
            f"{framed} with framed region cubes), "
            f"**{len(have)} of {FIVE_PIECE_BALANCES}** balances, **{fmt(lay)}** bytes against Syzygy's {fmt(syz)} "
            f"for the same balances (**{ratio(lay, syz)}**); largest {worst['balance']} "
            f"{ratio(worst['cr_layout_bytes'], wdl[worst['balance']])}; over 1.0x: "
            + (", ".join(over) if over else "none") + ".", ""]


def made_cell(r):
    """A record whose note does not say it had the machine to itself counts as made beside others."""
    return "alone" if alone(r.get("note", "")) else "beside other jobs"


def appendix_text():
    """One row for every five-piece balance: its capture-resolved cover against Syzygy's WDL file,
    each stage's time and peak; the totals over the proven covers; what ran beside each balance."""
    recs = batch_records()
    by_name = {r["balance"]: r for r in recs}
    wdl = syzygy_sizes()
    names = five_piece_balances(recs)
    wdl_total = sum(wdl[n] for n in names if n in wdl)
    lines = [HEADER, "# Results: five pieces, balance by balance", "",
             f"One row for each of the {len(names)} five-piece balances, a record under `docs/data/batch` where "
             "there is one ([results.md](results.md) sums them up). A record is made by `egtmin-cli batch NAME "
             "--covers capture-resolved --syzygy-sizes docs/syzygy-wdl-sizes.tsv --json` (`--covers both` adds "
             "the standalone cover), split by `python3 scripts/results.py save-batch`: the table generated and "
             "self-checked (\"on disk\": made by an earlier batch, only self-checked here); the capture-resolved "
             "cover minimized with the output with the most cubes implied, what a capture or promotion reaches "
             "left to the probe's capture search (`minimize-cr`); and its proof (`check-cr`): the cubes against "
             "the table, and every legal position through the probe with its capture search. A cover is listed "
             "only once proven with no mismatch. Times are wall times, peaks per stage; minimize-cr's CPU is the "
             "stage's, or the minimization's own where the record predates stage CPU times. \"Made\": whether "
             "the balance had the machine to itself; times made beside other jobs are longer for it, and serve "
             "no projection.", "",
             "| balance | positions | table: generate + self-check (peak) | minimize-cr: wall, CPU (peak) | capture-resolved cubes "
             "| capture-resolved cover bytes | Syzygy WDL bytes | cover / WDL | probe layout bytes (/ WDL) "
             "| check-cr: positions through the probe, mismatches (time, peak) | standalone cover bytes | made |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for n in names:
        r = by_name.get(n)
        syz = wdl.get(n) or (r or {}).get("syzygy_wdl_bytes")
        syz_cell = fmt(syz) if syz else "—"
        if r is None:
            lines.append(f"| {n} | — | — | — | — | — | {syz_cell} | — | — | — | — | not made yet |")
            continue
        table = f"{gen_cell(r)} + {secs(r['self_check_seconds'])} ({gb(r['table']['peak_bytes'])})"
        standalone = fmt(r["cover_bytes"]) if standalone_proven(r) else "—"
        if cr_proven(r):
            m, c = r["minimize_cr"], r["check_cr"]
            cpu = cpu_of_minimize_cr(r)
            cr_cells = (f"{secs(m['seconds'])}, " + (f"{secs(cpu)} CPU" if cpu is not None else "CPU —")
                        + f" ({gb(m['peak_bytes'])}) | {fmt(r['cr_cubes'])} | {fmt(r['cr_cover_bytes'])} | {syz_cell} "
                        f"| {ratio(r['cr_cover_bytes'], syz)} | {layout_cell(r, syz)} "
                        f"| {fmt(r['cr_probed_positions'])}, {r['cr_mismatches']} "
                        f"({secs(c['seconds'])}, {gb(c['peak_bytes'])})")
        else:
            cr_cells = f"none proven | — | — | {syz_cell} | — | — | —"
        lines.append(f"| {n} | {fmt(r['positions'])} | {table} | {cr_cells} | {standalone} | {made_cell(r)} |")

    # The totals over the balances with a proven capture-resolved cover.
    cr = [r for r in recs if cr_proven(r)]
    lines.append("")
    if cr:
        cr_bytes = sum(r["cr_cover_bytes"] for r in cr)
        cr_wdl = sum(syzygy_of(r, wdl) or 0 for r in cr)
        cpus = [cpu_of_minimize_cr(r) for r in cr if cpu_of_minimize_cr(r) is not None]

        def peak(stage):
            b, name = max((r[stage]["peak_bytes"], r["balance"]) for r in cr)
            return f"{gb(b)} ({name})"

        made_alone = sum(alone(r.get("note", "")) for r in cr)
        lines.append(f"**{len(cr)} of {len(names)}** balances have a capture-resolved cover proven exact on every "
                     f"legal position ({sum('P' in r['balance'] for r in cr)} of them with pawns): "
                     f"**{fmt(cr_bytes)}** bytes against Syzygy's {fmt(cr_wdl)} for the same balances "
                     f"(**{ratio(cr_bytes, cr_wdl)}**); those balances hold "
                     f"{cr_wdl / wdl_total:.1%} of the {fmt(wdl_total)} bytes of Syzygy's five-piece WDL files.")
        lines.append("")
        lines.append(f"Their stages, summed: tables {secs(sum(table_seconds(r) for r in cr))} (generate + self-check), "
                     f"minimize-cr {secs(sum(r['minimize_cr']['seconds'] for r in cr))} wall, "
                     f"{secs(sum(cpus))} CPU" + ("" if len(cpus) == len(cr) else f" (of the {len(cpus)} known)")
                     + f", check-cr {secs(sum(r['check_cr']['seconds'] for r in cr))}; the largest peaks: table "
                     f"{peak('table')}, minimize-cr {peak('minimize_cr')}, check-cr {peak('check_cr')}. "
                     f"{made_alone} of the {len(cr)} made alone, the others beside other jobs.")
        through_tables = sorted(r["balance"] for r in cr if r.get("cr_successors") == "tables")
        if through_tables:
            lines.append("")
            lines.append(f"{len(through_tables)} of them {'was' if len(through_tables) == 1 else 'were'} proven with the values their capture searches reach read "
                         f"from the tables of those balances (`batch --successors tables`), the others through their "
                         f"covers: {', '.join(through_tables)}.")
    else:
        lines.append(f"0 of {len(names)} balances have a capture-resolved cover proven exact yet.")
    others = [r["balance"] for r in recs if not cr_proven(r)]
    if others:
        lines.append("")
        lines.append(f"{len(others)} more with a standalone cover only: {', '.join(sorted(others))}.")
    lines += ["", "## Machines and what ran beside each balance", ""]
    machines = sorted({r.get("machine", "?") for r in recs})
    lines.append("Measured on: " + ("; ".join(machines) if machines else "no record yet")
                 + ". Times made beside other jobs are longer for it.")
    lines.append("")
    by_note = {}
    for r in recs:
        by_note.setdefault(r.get("note", "not recorded"), []).append(r["balance"])
        # A cover kept from an earlier run: its own conditions.
        for e in r.get("earlier_covers", []):
            by_note.setdefault(f"{e['cover']} cover, an earlier run on {e['machine']}: {e['note']}", []).append(
                r["balance"])
    for note, names in sorted(by_note.items(), key=lambda kv: kv[1]):
        lines.append(f"- {', '.join(names)}: {note}.")
    return "\n".join(lines) + "\n"


# --- the 2-4-piece appendix --------------------------------------------------------------------

def small_appendix_text():
    """Balance by balance, from the 2-4-piece records: the cover against Syzygy, and the times."""
    size = records("size").get("pieces4")
    gen = records("gen").get("pieces4")
    mini = records("minimize").get("pieces4")
    lines = [HEADER, "# Results: 2-4 pieces, balance by balance", "",
             "From the records [size/pieces4](data/size/pieces4.json), [gen/pieces4](data/gen/pieces4.json) and "
             "[minimize/pieces4](data/minimize/pieces4.json) ([results.md](results.md) sums them up, with their "
             "commands and machine). Covers leave the output with the most cubes implied, as `minimize` does by "
             "default; cubes are those stored. `minimize` spreads the balances over its workers, one a core, so their wall "
             "times overlap.", ""]
    if not size:
        return "\n".join(lines + ["No records yet."] + ablation_lines()) + "\n"
    g = {r["balance"]: r for r in gen["result"]["generated"]} if gen else {}
    m = {r["balance"]: r for r in mini["result"]["balances"]} if mini else {}
    lines += ["| balance | cubes | cover bytes | Syzygy WDL bytes | WDL through xz -9e | cover / xz | generate + self-check | minimize: wall, CPU |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]

    def cell(n):
        return fmt(n) if n is not None else "—"

    for r in sorted(size["result"]["balances"], key=lambda r: (pieces_of(r["balance"]), r["balance"])):
        b = r["balance"]
        t = (f"{g[b]['seconds']:.2f} + {g[b].get('self_check', {}).get('seconds', 0):.2f} s" if b in g else "—")
        lines.append(f"| {b} | {cell(r['cubes'])} | {cell(r['cover_bytes'])} | {cell(r['syzygy_bytes'])} "
                     f"| {cell(r['syzygy_xz_bytes'])} | {ratio(r['cover_bytes'], r['syzygy_xz_bytes'])} | {t} "
                     + (f"| {m[b]['seconds']:.2f} s, {m[b]['cpu_seconds']:.2f} s |" if b in m else "| — |"))
    return "\n".join(lines + ablation_lines()) + "\n"


def ablation_lines():
    """The size ablation's record: each idea's covers against the default's, and its probe."""
    rec = records("ablation").get("pieces4")
    if not rec:
        return []
    ideas = rec["result"]["ideas"]
    base = next((i for i in ideas if i["idea"] == "default"), ideas[0])
    lines = ["", "## Size ablation", "",
             f"From [ablation/pieces4](data/ablation/pieces4.json): `{rec['command']}` on a "
             f"{machine_text(rec['machine'])}, beside {rec['beside']}. Minimization seconds are summed over "
             "the balances; the probe is each idea's indexed batch mean over its own run's Fathom "
             f"({fmt(base['probe_positions'])} positions, one round).", "",
             "| idea | cover bytes | against the default | cubes stored | minimization | indexed / Fathom | mismatches |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for i in ideas:
        lines.append(f"| {i['idea']}: {i['description']} | {fmt(i['bytes'])} | {i['bytes'] / base['bytes']:.3f} "
                     f"| {fmt(i['cubes'])} | {secs(i['minimize_seconds'])} "
                     f"| {i['indexed_batch_mean_ns'] / i['fathom_batch_mean_ns']:.3f} | {i['probe_mismatches']} |")
    return lines


# --- the results page --------------------------------------------------------------------------

HEADER = ("<!-- SPDX-License-Identifier: GPL-3.0-or-later -->\n"
          "<!-- Written by scripts/results.py from the records under docs/data: change those, then run "
          "`python3 scripts/results.py write`. -->")


def by_pieces(rows, key="balance"):
    out = {}
    for row in rows:
        out.setdefault(pieces_of(row[key]), []).append(row)
    return out


def probe_order(probes):
    """The probe records' names by piece count, in passes before taking turns."""
    return sorted(probes, key=lambda k: (probes[k]["result"]["pieces"], probes[k]["result"]["turns"] != "pass", k))


def probe_summary(rec):
    """indexed and Fathom batch means and the per-round ratios of one bench probe record."""
    j = rec["result"]
    m = j["methods"]
    ix, fa = m["indexed"], m.get("fathom")
    rounds = ", ".join(f"{x:.3f}" for x in j.get("round_indexed_to_fathom", []))
    return (f"| {j['pieces']} | {j['turns']} | {fmt(j['positions'])} | {ix['batch_mean_ns']:,.1f} ns "
            f"| {fa['batch_mean_ns']:,.1f} ns | **{ix['batch_mean_ns'] / fa['batch_mean_ns']:.3f}** ({rounds}) "
            f"| {mb(ix['memory_bytes'])} / {mb(fa['memory_bytes'])} | {j['mismatches']} |")


def headline(parts):
    return ("; ".join(parts) if parts else "no records yet") + "."


def readme_text(results):
    """README.md with its results line quoting the results page's headline (its first line after
    the title), or None when README has no such line."""
    try:
        readme = README.read_text()
    except OSError:
        return None
    lines = readme.split("\n")
    head = results.split("\n# Results\n\n", 1)[1].split("\n", 1)[0]
    for i, line in enumerate(lines):
        if line.startswith(README_LINE):
            lines[i] = README_LINE + head[0].lower() + head[1:]
            return "\n".join(lines)
    return None


def pipeline_lines(rec, name):
    """`bench pipeline`'s sample stage by stage and its projection for a whole piece count."""
    j = rec["result"]
    hours = j["projected_seconds"] / 3600
    lp = j["largest_peak"]
    out = [f"## The {j['project_pieces']}-piece pipeline, projected", "",
           f"`bench pipeline` ran the sample ({j['sample']}) through the batch's capture-resolved stages "
           f"({rec['beside']} beside it): each balance's table and its self-check, its capture-resolved cover, "
           "and that cover's proof over every legal position through the capture search. The projection takes, "
           "per stage and per kind of balance (with pawns or without; against a lone king or with material on "
           "each side), the sample's seconds per table slot times the slots of every balance of that kind, "
           "stages one after another "
           f"([pipeline/{name}](data/pipeline/{name}.json)).", "",
           "| balance | stage | wall | CPU | CPU / wall | peak | table slots |", "|---|---|---:|---:|---:|---:|---:|"]
    for s in j["stages"]:
        note = "" if s["ran_here"] else " (done before: its record's)"
        busy = f"{s['cpu_seconds'] / s['seconds']:.2f}" if s["seconds"] else "—"
        out.append(f"| {s['balance']} | {s['stage']}{note} | {secs(s['seconds'])} | {secs(s['cpu_seconds'])} "
                   f"| {busy} | {gb(s['peak_bytes'])} | {fmt(s['slots'])} |")
    out += ["", "| stage | balances | from the sample's | seconds per million slots | their slots | projected |",
            "|---|---|---|---:|---:|---:|"]
    for p in j["projection"]:
        kind = ("with pawns" if p["pawns"] else "without pawns") + (
            ", against a lone king" if p["lone_king"] else ", material on each side")
        out.append(f"| {p['stage']} | {p['balances']} {kind} | {', '.join(p['from'])} "
                   f"| {p['seconds_per_slot'] * 1e6:,.2f} | {fmt(p['slots'])} | {p['seconds'] / 3600:,.1f} h |")
    out += ["", f"Projected for every {j['project_pieces']}-piece balance: **{hours:,.1f} h** one stage after "
            f"another; the largest peak of a stage {gb(lp['peak_bytes'])} ({lp['balance']}, {lp['stage']}).", ""]
    return out


def kind_of(name):
    """A balance's kind as the projection takes it (core/chess/balance_kind.hpp): with pawns or
    without, and whether the side with fewer pieces has its king only."""
    white, black = name.split("v")
    return "P" in name, min(len(white), len(black)) == 1


def alone_against_projection(rec, batch):
    """The batch records made alone, outside the pipeline sample, against what the projection gives
    each: its kind's seconds per slot for each capture-resolved stage, times its slots (every balance
    of a kind has as many: the kind's slots over its balances)."""
    j = rec["result"]
    sample = set(j["sample"].split(", "))
    per_kind = {}
    for p in j["projection"]:
        kind = (p["pawns"], p["lone_king"])
        per_kind[kind] = per_kind.get(kind, 0.0) + p["seconds_per_slot"] * p["slots"] / p["balances"]
    rows = []
    for r in batch:
        n = r["balance"]
        if (pieces_of(n) != j["project_pieces"] or n in sample or not alone(r.get("note", ""))
                or not cr_proven(r) or kind_of(n) not in per_kind):
            continue
        made = sum(r[stage]["seconds"] for stage in ("table", "minimize_cr", "check_cr"))
        rows.append((kind_of(n), n, made, per_kind[kind_of(n)]))
    if not rows:
        return []
    def label(kind):
        return ("with pawns" if kind[0] else "without pawns") + (", lone king" if kind[1] else ", material on each side")

    out = ["The batch records made with the machine to itself, outside the sample, against the projection: "
           "each one's table, capture-resolved cover and proof, against its kind's seconds per slot for those "
           "stages times its slots.", "",
           "| balance | kind | made | projected | made / projected |", "|---|---|---:|---:|---:|"]
    for kind, n, made, proj in sorted(rows):
        out.append(f"| {n} | {label(kind)} | {secs(made)} | {secs(proj)} | {made / proj:.2f} |")
    out += ["", "| kind | balances | made | projected | made / projected |", "|---|---:|---:|---:|---:|"]
    for kind in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == kind]
        made, proj = sum(r[2] for r in mine), sum(r[3] for r in mine)
        out.append(f"| {label(kind)} | {len(mine)} | {secs(made)} | {secs(proj)} | {made / proj:.2f} |")
    made, proj = sum(r[2] for r in rows), sum(r[3] for r in rows)
    out.append(f"| all | {len(rows)} | {secs(made)} | {secs(proj)} | **{made / proj:.2f}** |")
    out.append("")
    return out


def probe_ready_text(ready, wdl, batch):
    """Per piece count, the capture-resolved covers' probe layouts of each size record against
    Syzygy's WDL files (docs/syzygy-wdl-sizes.tsv): in total, and how many are over 1.0x each."""
    out = ["## Probe-ready bytes against Syzygy's WDL files", "",
           "What probing at speed keeps on disk: each capture-resolved cover's probe layout, which probes "
           "without the cover file, against the balance's Syzygy WDL file (`docs/syzygy-wdl-sizes.tsv`); every "
           "layout on disk when the record was made. The goal of a probe-ready form is each balance at most "
           "1.0x and all of them together at most 0.75x at five pieces, and all 2-4-piece ones together at "
           "most 1.0x.", "",
           "| pieces | layouts | layout bytes | Syzygy WDL bytes | layout / WDL | over 1.0x | largest | cover bytes "
           "| cover / WDL | record |", "|---|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    parts_rows = []
    for name, rec in ready:
        for n, rows in sorted(by_pieces(rec["result"]["balances"]).items()):
            if (n == 5) != (name == "pieces5-cr"):  # each piece count from one record
                continue
            have = [r for r in rows if r["layout_bytes"] is not None and wdl.get(r["balance"])]
            if not have:
                continue
            lay = sum(r["layout_bytes"] for r in have)
            syz = sum(wdl[r["balance"]] for r in have)
            cov = sum(r["cover_bytes"] or 0 for r in have)
            over = sum(r["layout_bytes"] > wdl[r["balance"]] for r in have)
            worst = max(have, key=lambda r: r["layout_bytes"] / wdl[r["balance"]])
            out.append(f"| {n} | {len(have)} | {fmt(lay)} | {fmt(syz)} | {ratio(lay, syz)} | {over} "
                       f"| {worst['balance']} {ratio(worst['layout_bytes'], wdl[worst['balance']])} | {fmt(cov)} "
                       f"| {ratio(cov, syz)} | [size/{name}](data/size/{name}.json) |")
            # Where those bytes go, from records that count each layout's parts.
            if all(r.get("layout_parts") for r in have):
                parts = ("index", "regions", "rule_draws", "rest")
                sums = {k: sum(r["layout_parts"][k] for r in have) for k in parts}
                cells = " | ".join(f"{fmt(sums[k])} ({100 * sums[k] / lay:.0f} %)" for k in parts)
                parts_rows.append(f"| {n} | {cells} | [size/{name}](data/size/{name}.json) |")
    out.append("")
    # A size record measures the layouts on disk at its time; the batch records may hold newer ones.
    five = dict(ready).get("pieces5-cr")
    if five:
        current = {r["balance"]: r["cr_layout_bytes"] for r in current_batch_layouts(batch, wdl)}
        rows = [r for r in five["result"]["balances"] if pieces_of(r["balance"]) == 5 and r["layout_bytes"] is not None]
        stale = [r for r in rows if r["balance"] in current and current[r["balance"]] != r["layout_bytes"]]
        if stale:
            out += [f"Of the {len(rows)} five-piece layouts in [size/pieces5-cr](data/size/pieces5-cr.json), "
                    f"{len(stale)} are not the layout of the balance's current batch record (that record measured "
                    "the layouts on disk when it was made); the batch records' own layouts are summed below.", ""]
    if parts_rows:
        out += ["Where the layouts' bytes go: the front lines and trees, the region directories and their cubes, "
                "the 50-move rule's draws (Rice-coded), and the rest (headers, the covers' descriptions, the "
                "indexes' fields, alignment).", "",
                "| pieces | front lines and trees | regions | 50-move rule's draws | the rest | record |",
                "|---|---:|---:|---:|---:|---|"] + parts_rows + [""]
    # The floor of any form that keeps each of the cover's cubes once, in a word a probe can match.
    for name, rec in ready:
        rows = [r for r in rec["result"]["balances"]
                if pieces_of(r["balance"]) == 5 and r["cubes"] and wdl.get(r["balance"])]
        if name != "pieces5-cr" or not rows:
            continue
        tight = sorted((wdl[r["balance"]] / r["cubes"], r["balance"]) for r in rows)
        under4 = [f"{b} {x:.1f}" for x, b in tight if x < 4]
        under8 = [b for x, b in tight if x < 8]
        out += [f"Syzygy's file leaves {tight[0][0]:.1f} to {tight[-1][0]:.1f} bytes for each of the cover's cubes at "
                "five pieces (its bytes over the cubes). A form that keeps each cube once, as a word a probe matches "
                "directly (4 bytes for a region index's cubes of two free pieces, 8 for the cover's own cubes of 31 "
                "inputs), is over 1.0x of the file wherever that budget is under its word: under 4 bytes "
                + (", ".join(under4) if under4 else "none") + f"; under 8 bytes {len(under8)} of the {len(rows)}. "
                "There the cubes have to be fewer, or coded in less than a word and decoded by the probe.", ""]
    return out


def results_text():
    sizes = records("size")
    size, size_cr = sizes.get("pieces4"), sizes.get("pieces4-cr")
    gen = records("gen").get("pieces4")
    ver = records("verify").get("pieces4")
    mini = records("minimize").get("pieces4")
    probes = records("probe")
    batch = batch_records()
    wdl = syzygy_sizes()
    five_total = sum(1 for n in wdl if pieces_of(n) == 5)
    # Each cover's figures from the records that have it proven (a record may hold either or both).
    cr = [r for r in batch if cr_proven(r) and syzygy_of(r, wdl)]
    cr_bytes, cr_wdl = sum(r["cr_cover_bytes"] for r in cr), sum(syzygy_of(r, wdl) for r in cr)
    st = [r for r in batch if standalone_proven(r) and syzygy_of(r, wdl)]
    st_bytes, st_wdl = sum(r["cover_bytes"] for r in st), sum(syzygy_of(r, wdl) for r in st)

    out = [HEADER, "# Results", ""]
    # The headline: what a newcomer reads first, each figure from a record below.
    head = []
    if size:
        j = size["result"]
        b = j["both"]
        head.append(f"the 2-4-piece covers take **{b['cover_bytes'] / b['syzygy_bytes']:.2f}x** the bytes of "
                    f"Syzygy's WDL files ({b['cover_bytes'] / b['syzygy_xz_bytes']:.2f}x of them through xz -9e)")
    if size_cr:
        b = size_cr["result"]["both"]
        head.append(f"**{b['cover_bytes'] / b['syzygy_bytes']:.2f}x** when what a capture reaches is left to the "
                    "probe's capture search")
    p4 = probes.get("pieces4")
    if p4:
        m = p4["result"]["methods"]
        head.append(f"a 4-piece probe takes **{m['indexed']['batch_mean_ns'] / m['fathom']['batch_mean_ns']:.2f}x** "
                    "Fathom's time (batch means, in passes)")
    if cr:
        head.append(f"**{len(cr)} of the {five_total}** five-piece balances have a capture-resolved cover proven "
                    f"exact, at **{cr_bytes / cr_wdl:.2f}x** the bytes of their WDL files")
        lays = current_batch_layouts(batch, wdl)
        if lays:
            lay, syz, over = layout_totals(lays, wdl)
            head.append(f"the probe layouts of {len(lays)} of them, what probing at speed keeps on disk, at "
                        f"**{lay / syz:.2f}x** ("
                        + (f"{len(over)} over their files" if over else "none over its file") + ")")
    out += [headline(head)[0].upper() + headline(head)[1:], ""]

    # Cover bytes.
    out += ["## Cover bytes against Syzygy's WDL files", "",
            "Standalone covers hold every value; capture-resolved ones leave what a capture or promotion "
            "reaches to the probe's capture search. Both leave the output with the most cubes implied.", "",
            "| pieces | covers | balances | cover bytes | Syzygy WDL bytes | cover / WDL | WDL through xz -9e | cover / xz |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    rows_by_kind = []
    for name, kind in (("pieces4", "standalone"), ("pieces4-cr", "capture-resolved")):
        if name in sizes:
            for n, rows in by_pieces(sizes[name]["result"]["balances"]).items():
                rows_by_kind.append((n, kind, rows))
    for n, kind, rows in sorted(rows_by_kind, key=lambda t: (t[0], t[1] != "standalone")):
        both = [r for r in rows if r["cover_bytes"] is not None and r["syzygy_bytes"] is not None]
        c = sum(r["cover_bytes"] for r in both)
        w = sum(r["syzygy_bytes"] for r in both)
        x = sum(r["syzygy_xz_bytes"] for r in both)
        if not both:  # KvK: a draw, which Syzygy has no file for
            names = ", ".join(r["balance"] for r in rows)
            out.append(f"| {n} | {kind} | {names}, no WDL file | {fmt(sum(r['cover_bytes'] or 0 for r in rows))} "
                       "| — | — | — | — |")
            continue
        out.append(f"| {n} | {kind} | {len(both)} | {fmt(c)} | {fmt(w)} | {ratio(c, w)} | {fmt(x)} | {ratio(c, x)} |")
    if st:
        out.append(f"| 5 | standalone | {len(st)} of {five_total} | {fmt(st_bytes)} | {fmt(st_wdl)} "
                   f"| {ratio(st_bytes, st_wdl)} | — | — |")
    if cr:
        out.append(f"| 5 | capture-resolved | {len(cr)} of {five_total} | {fmt(cr_bytes)} | {fmt(cr_wdl)} "
                   f"| {ratio(cr_bytes, cr_wdl)} | — | — |")
    out.append("")

    # Probe time.
    out += ["## Probe time against Fathom", "",
            "Batch means of the indexed probe and Fathom's on the same random legal positions, in passes or "
            "taking turns every 4,096 positions (`--turns chunk`); memory: what each keeps resident, for the "
            "indexed probe every cover in the data directory, for Fathom the WDL files it maps.", "",
            "| pieces | turns | positions | indexed | Fathom | indexed / Fathom (per round) | memory | mismatches |",
            "|---|---|---:|---:|---:|---|---:|---:|"]
    for name in probe_order(probes):
        out.append(probe_summary(probes[name]))
    timed = {p["result"]["pieces"] for p in probes.values()}
    missing = [str(n) for n in (3, 4, 5) if n not in timed]
    out += ["", "Two pieces are KvK alone, which Syzygy has no file for."
            + (f" No record yet at {' and '.join(filter(None, [', '.join(missing[:-1]), missing[-1]]))} pieces."
               if missing else ""), ""]

    # Bytes and time together: the bytes-time chart of the workbench (Charts, Probe times), as a table.
    if probes:
        out += ["## Bytes and time against Syzygy", "",
                "Each probe method of the records above as a point of (its memory / what Fathom maps of Syzygy's "
                "WDL files, its batch mean / Fathom's), Syzygy through Fathom at (1, 1). The goal of a probe-ready "
                "form is under 0.5 on both at once. *capture-resolved*: the capture-resolved covers' layouts with "
                "the probe's capture search; *linear*: the cover's cubes scanned as stored. A method's memory counts "
                "every cover of its data directory, so 3 pieces are left out (the 2-4-piece covers against "
                "Fathom's 3-piece files); at 5 pieces it holds what the capture searches need (KRPvKR's "
                "promotions reach KRBvKR and KRNvKR).", "",
                "| pieces | turns | method | memory | memory / Syzygy's | batch mean | time / Fathom (per round) |",
                "|---|---|---|---:|---:|---:|---|"]
        for name in probe_order(probes):
            j = probes[name]["result"]
            fa = j["methods"].get("fathom")
            if not fa or j["pieces"] < 4:
                continue
            per_round = j.get("round_ratios_to_fathom", {})
            for method in sorted(j["methods"], key=lambda m: (m == "fathom", m)):
                m = j["methods"][method]
                rounds = ", ".join(f"{x:.3g}" for x in per_round.get(method, []))
                out.append(f"| {j['pieces']} | {j['turns']} | {method} | {mb(m['memory_bytes'])} "
                           f"| {m['memory_bytes'] / fa['memory_bytes']:.2f} | {m['batch_mean_ns']:,.1f} ns "
                           f"| {m['batch_mean_ns'] / fa['batch_mean_ns']:.3g}" + (f" ({rounds})" if rounds else "") + " |")
        out.append("")
        # Balance by balance, from the records that name their balances: what probing one keeps.
        named = {}
        for name in probe_order(probes):
            for b in probes[name]["result"].get("balances", []):
                cr = b.get("capture_resolved")
                if cr and b.get("syzygy_wdl_bytes") and b["balance"] not in named:
                    named[b["balance"]] = (b["syzygy_wdl_bytes"], cr, name)
        if named:
            out += ["Each named balance's capture-resolved cover as probed in those runs: its probe layout, which "
                    "probes without the cover file (what a user keeps on disk), and the resident bytes of its cover "
                    "after the run (the mapped layout counted whole, with what the prober holds beside it).", "",
                    "| balance | Syzygy WDL file | probe layout | layout / Syzygy | resident | resident / Syzygy "
                    "| record |", "|---|---:|---:|---:|---:|---:|---|"]
            for bal in sorted(named, key=lambda n: named[n][0]):
                file_bytes, probed, name = named[bal]
                lay = probed.get("layout_bytes")
                out.append(f"| {bal} | {fmt(file_bytes)} | {fmt(lay) if lay else '—'} "
                           f"| {ratio(lay, file_bytes) if lay else '—'} | {fmt(probed['resident_bytes'])} "
                           f"| {ratio(probed['resident_bytes'], file_bytes)} | [probe/{name}](data/probe/{name}.json) |")
            out.append("")

    # Probe-ready bytes, every cover of a size record: what probing at speed keeps on disk.
    ready = [(name, sizes[name]) for name in ("pieces4-cr", "pieces5-cr") if name in sizes]  # 2-4, 5 pieces
    if ready:
        out += probe_ready_text(ready, wdl, batch)
    out += batch_layouts_text(batch, wdl)

    # Time and memory.
    out += ["## Tables, minimization, memory", "",
            "| pieces | balances | tables: generate + self-check | compared with Syzygy: positions, mismatches "
            "| minimize | peak memory: making tables; minimizing |",
            "|---|---:|---:|---:|---:|---:|"]
    g = by_pieces(gen["result"]["generated"]) if gen else {}
    v = by_pieces(ver["result"]["balances"]) if ver else {}
    mz = by_pieces(mini["result"]["balances"]) if mini else {}
    for n in sorted(set(g) | set(mz)):
        gt = sum(r["seconds"] for r in g.get(n, []))
        sc = sum(r.get("self_check", {}).get("seconds", 0) for r in g.get(n, []))
        vs = [r["syzygy"] for r in v.get(n, []) if "syzygy" in r]
        cmp_cell = f"{fmt(sum(x['positions'] for x in vs))}, {sum(x['mismatches'] for x in vs)}" if vs else "—"
        mw = sum(r["seconds"] for r in mz.get(n, []))
        mc = sum(r["cpu_seconds"] for r in mz.get(n, []))
        peak = max((p["peak_bytes"] for r in mz.get(n, []) for p in r["passes"]), default=0)
        # gen reports no peak per table: its whole run's, on the row of the largest tables.
        tables_peak = mb(gen["peak_rss_bytes"]) + " (the run)" if gen and n == max(g) else "—"
        out.append(f"| {n} | {len(g.get(n, mz.get(n, [])))} | {gt:,.1f} + {sc:,.1f} s | {cmp_cell} "
                   # Balances are minimized side by side, so their wall times overlap: CPU time by
                   # piece count, and the whole run's wall time.
                   + (f"| {mc:,.1f} s CPU" + (f"; the run {mini['result']['seconds']:,.0f} s wall, "
                                              f"{mini['result']['cpu_seconds']:,.0f} s CPU" if n == max(mz) else "")
                      + " " if mz.get(n) else "| — ")
                   + f"| {tables_peak}; {mb(peak) if mz.get(n) else '—'} |")
    if batch:
        t = sum(table_seconds(r) for r in batch)
        tp, top = max((r["table"]["peak_bytes"], r["balance"]) for r in batch)
        comp = [r for r in batch if r.get("syzygy_compared")]
        # Each cover's minimization over the records that have it: the capture-resolved first.
        minimized = []
        for cover, stage, have, cpu_of in (
                ("capture-resolved", "minimize_cr", cr_proven, cpu_of_minimize_cr),
                ("standalone", "minimize", standalone_proven, cpu_of_minimize)):
            rs = [r for r in batch if have(r)]
            if not rs:
                continue
            cpus = [c for c in map(cpu_of, rs) if c is not None]
            mp, mtop = max((r[stage]["peak_bytes"], r["balance"]) for r in rs)
            minimized.append((f"{cover} ({len(rs)}): {secs(sum(r[stage]['seconds'] for r in rs))} wall, "
                              f"{secs(sum(cpus))} CPU" + ("" if len(cpus) == len(rs) else f" (of {len(cpus)})"),
                              f"{gb(mp)} ({mtop}, {cover})"))
        out.append(f"| 5 | {len(batch)} of {five_total} | {secs(t)} | "
                   + (f"{fmt(sum(r['syzygy_positions'] for r in comp))}, {sum(r['syzygy_mismatches'] for r in comp)}"
                      if comp else "— (the self-check)")
                   + f" | {'; '.join(m for m, _ in minimized) or '—'} | {gb(tp)} ({top}); "
                   + ("; ".join(p for _, p in minimized) + " at most" if minimized else "—") + " |")
    out.append("")

    # The whole pipeline, projected from a sample run with the machine to itself.
    pipelines = records("pipeline")
    for name in sorted(pipelines):
        out += pipeline_lines(pipelines[name], name)
        out += alone_against_projection(pipelines[name], batch)

    # A real engine.
    engines = records("engine")
    if engines:
        out += ["## A real engine through the drop-in", "",
                "Debian's `ethereal-chess` searching each position at a fixed depth on one thread, once through "
                "egtmin's `libfathom.so.1` over covers and once through Debian's `libfathom1` over Syzygy's WDL "
                "files of the same balances ([fathom-library.md](fathom-library.md)). The positions have one or "
                "two pieces more than the largest balance, so only the searches' captures reach the tables.", "",
                "| balances | capture-resolved | positions | depth | identical searches | nodes | tbhits "
                "| five-piece balances probed | drop-in | libfathom1 | drop-in / libfathom1 |",
                "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
        for name in sorted(engines):
            j = engines[name]["result"]
            a, b = j["drop_in"], j["libfathom"]
            probed = [n for n in a.get("balances_probed", []) if pieces_of(n) == 5 and n in b.get("balances_probed", [])]
            out.append(f"| {len(j['balances'])} | {len(j['capture_resolved'])} | {fmt(j['positions'])} | {j['depth']} "
                       f"| {fmt(j['positions'] - j['mismatches'])} | {fmt(a['nodes'])} | {fmt(a['tbhits'])} "
                       f"| {', '.join(probed) or '—'} | {a['seconds']:.1f} s | {b['seconds']:.1f} s "
                       f"| {j['ratio_drop_in_to_libfathom']:.3f} |")
        out.append("")

    # Machine and commands.
    out += ["## Machine and commands", ""]
    minis = records("minimize")
    listed = ([("gen", "pieces4", gen), ("verify", "pieces4", ver)]
              + [("minimize", k, minis[k]) for k in sorted(minis)] + [("size", k, sizes[k]) for k in sorted(sizes)]
              + [("probe", k, probes[k]) for k in sorted(probes)] + [("engine", k, engines[k]) for k in sorted(engines)]
              + [("pipeline", k, pipelines[k]) for k in sorted(pipelines)])
    own_lines = (("The engine", {"engine"}), ("The pipeline", {"pipeline"}))
    for label, kinds in (("2-4 pieces", None),) + own_lines:
        recs = [r for kind, _, r in listed
                if r and (kind in kinds if kinds else all(kind not in ks for _, ks in own_lines))]
        for m in sorted({machine_text(r["machine"]) for r in recs}):
            besides = sorted({r["beside"] for r in recs if machine_text(r["machine"]) == m})
            out.append(f"{label}: {m}; beside the runs: {'; '.join(besides)}.")
    if batch:
        shared = sum(not alone(r.get("note", "")) for r in batch)
        out.append(f"5 pieces: {'; '.join(sorted({r.get('machine', '?') for r in batch}))}; {shared} of the "
                   f"{len(batch)} balances beside other jobs ([per balance](results-5piece.md)).")
    out.append("")
    for kind, name, rec in listed:
        if rec:
            out.append(f"- `{rec['command']}` ([{kind}/{name}](data/{kind}/{name}.json))")
    if batch:
        out.append("- 5 pieces: `build/app/egtmin-cli batch NAME... --covers capture-resolved --data data "
                   "--syzygy-sizes docs/syzygy-wdl-sizes.tsv --json` (`--covers both` adds the standalone cover), "
                   "split by `python3 scripts/results.py save-batch` ([batch/](data/batch))")
    return "\n".join(out) + "\n"


def pages():
    results = results_text()
    out = {RESULTS: results, APPENDIX: appendix_text(), APPENDIX_SMALL: small_appendix_text()}
    readme = readme_text(results)
    if readme is not None:
        out[README] = readme
    return out


def write(args):
    for path, text in pages().items():
        write_atomically(path, text)
        print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")


def check(args):
    stale = []
    for path, text in pages().items():
        try:
            if path.read_text() != text:
                stale.append(path)
        except OSError:
            stale.append(path)
    for path in stale:
        print(f"{path.relative_to(ROOT)} is not what the records under docs/data give: "
              "run `python3 scripts/results.py write` and commit it", file=sys.stderr)
    sys.exit(1 if stale else 0)


def selftest(args):
    """That `check` fails when a record changes and the pages are not written again, and passes once
    they are: on a copy of docs/ and this script in a temporary directory."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        shutil.copytree(ROOT / "docs", copy / "docs")
        (copy / "scripts").mkdir()
        shutil.copy(__file__, copy / "scripts" / "results.py")
        # The layout versions the pages count are read from the layout's header.
        (copy / "core" / "probe").mkdir(parents=True)
        shutil.copy(ROOT / "core" / "probe" / "probe_layout.hpp", copy / "core" / "probe")

        def run(*a):
            return subprocess.run([sys.executable, str(copy / "scripts" / "results.py"), *a],
                                  capture_output=True, text=True).returncode

        record = next(iter(sorted((copy / "docs" / "data" / "batch").glob("*.json"))), None)
        if record is None:
            sys.exit("results selftest: no batch record to change")
        steps = [("write", run("write"), 0), ("check after write", run("check"), 0)]
        r = load(record)
        r["positions"] += 1  # on every page's five-piece row, whichever covers the record holds
        record.write_text(json.dumps(r, indent=1) + "\n")
        steps.append(("check after a record changed", run("check"), 1))
        steps += [("write again", run("write"), 0), ("check after writing again", run("check"), 0)]
        # A layout of a version older than the current ones is not summed.
        proven = next((p for p in sorted((copy / "docs" / "data" / "batch").glob("*.json")) if cr_proven(load(p))
                       and load(p).get("cr_layout_bytes") and layout_current(load(p))), None)
        if proven is not None:
            def summed():
                m = re.search(rf"\*\*(\d+) of {FIVE_PIECE_BALANCES}\*\* balances",
                              (copy / "docs" / "results.md").read_text())
                return int(m.group(1)) if m else 0
            before = summed()
            r = load(proven)
            r["cr_layout_version"] = current_layout_versions()[0] - 1
            proven.write_text(json.dumps(r, indent=1) + "\n")
            run("write")
            steps.append(("an older layout version's record left out", int(summed() != before - 1), 0))
            # So is a framed layout of the version whose frames the reader no longer reads.
            r["cr_layout_version"], r["cr_layout_framed"] = unread_framed_layout_version(), True
            proven.write_text(json.dumps(r, indent=1) + "\n")
            run("write")
            steps.append(("a framed layout of the unread version left out", int(summed() != before - 1), 0))
        failed = [f"{what}: exit {got}, expected {want}" for what, got, want in steps if got != want]
        for f in failed:
            print(f"results selftest: {f}", file=sys.stderr)
        print("results selftest: " + ("failed" if failed else "check tells a stale page from a fresh one"))
        sys.exit(1 if failed else 0)


def probe_table(args):
    """One row per `bench probe --balance NAME --json` report: what each position was checked
    against (Fathom, or the exact table where there is no Syzygy file), the mismatches, and each
    method's batch mean."""
    print("| balance | positions | checked against | mismatches | indexed batch mean | indexed, per round "
          "| linear batch mean (first 2,000) | Fathom batch mean | indexed / Fathom, per round |")
    print("|---|---:|---|---:|---:|---|---:|---:|---|")
    for path in args.reports:
        j = load(path)
        j = j.get("result", j)  # a record made by `record` keeps the report as its result
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
    r = sub.add_parser("record", help="run a --json command and keep its output as docs/data/KIND/NAME.json")
    r.add_argument("kind", help=", ".join(KIND_ORDER))
    r.add_argument("name", help="the record's name within its kind, e.g. pieces4")
    r.add_argument("--beside", required=True, help="what else ran on the machine meanwhile, e.g. 'nothing' or 'other builds'")
    r.set_defaults(func=record)
    rr = sub.add_parser("rerun", help="run every recorded command again and replace its record")
    rr.add_argument("kinds", nargs="*", help="only these kinds")
    rr.add_argument("--beside", required=True, help="what else ran on the machine meanwhile")
    rr.add_argument("--dry-run", action="store_true", help="print the commands only")
    rr.set_defaults(func=rerun)
    sb = sub.add_parser("save-batch", help="split a batch --json report into per-balance records under docs/data/batch",
                        description="One record per five-piece balance of the report whose table is done and at "
                        "least one of whose covers is proven exact (standalone: minimize and check done, no "
                        "mismatch; capture-resolved: minimize-cr and check-cr done, no mismatch); a cover not "
                        "proven leaves none of its figures, and balances of fewer pieces are left out. A new "
                        "record replaces that balance's earlier file, but the figures of a proven cover the "
                        "report does not hold (say, the standalone one of an earlier run) are kept when both "
                        "records hold the same table, with that run's machine and note under earlier_covers.")
    sb.add_argument("report", help="the output of `egtmin-cli batch ... --json`")
    sb.add_argument("--machine", help="describe the host (default: read from /proc)")
    sb.add_argument("--note", help="conditions of the run: what ran beside it, or 'the cores to itself' when "
                    "nothing did (a record without that counts as made beside other jobs)")
    sb.set_defaults(func=save_batch)
    w = sub.add_parser("write", help="write docs/results.md and docs/results-5piece.md from the records")
    w.set_defaults(func=write)
    c = sub.add_parser("check", help="exit 1 when a written page is not what the records give")
    c.set_defaults(func=check)
    t = sub.add_parser("selftest", help="show that check fails on a page its records no longer give")
    t.set_defaults(func=selftest)
    b = sub.add_parser("probe", help="print the per-balance probe table of `bench probe --balance NAME --json` reports")
    b.add_argument("reports", nargs="+")
    b.set_defaults(func=probe_table)
    # The recorded command follows "--", whatever options it has.
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    args = p.parse_args(argv)
    args.argv = command
    args.func(args)


if __name__ == "__main__":
    main()
