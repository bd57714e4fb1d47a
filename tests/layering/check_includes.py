#!/usr/bin/env python3
"""Checks every project #include "..." against the layer table of ARCHITECTURE.md.

Usage: check_includes.py ROOT [DOC]   (DOC: ROOT/ARCHITECTURE.md by default)

The data is the document itself, nothing else:
- the Markdown table whose header has the columns "folder" and "may include". A row's folder
  cell names its folders in backticks; its "may include" cell names, in backticks, what a file
  of those folders may include besides its own row: a folder (`sim/core`, with its subfolders),
  every folder under one (`models/*`) or one header (`sim/engine/time.hpp`). Plain words there
  (std, Boost.Graph) are external libraries, not checked; a cell starting with "anything" leaves
  the row unchecked. Rows go bottom to top: an entry may only name rows above its own.
- the bullets under the "Known exceptions" line: each reads "- `FILE` includes `HEADER`: why",
  one file and one header each.
A C/C++ file under a table folder (the one of longest prefix) may include its own row's headers,
its row's entries and its listed exceptions; anything else is reported as FILE:LINE with the
header, and the script exits 1. So does a table error: a folder in two rows or in none, an entry
naming nothing or a row that is not below, a listed exception that is no longer needed.
"""
import os
import re
import sys

SOURCE_EXTS = (".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh", ".inc", ".ipp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
EXCEPTION = re.compile(r"^- `([^`]+)` includes `([^`]+)`")
TICKS = re.compile(r"`([^`]+)`")


class Row:
    def __init__(self, index, folders, entries, unchecked):
        self.index, self.folders, self.entries, self.unchecked = index, folders, entries, unchecked

    def name(self):
        return ", ".join(self.folders)


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_doc(text):
    """(rows, exceptions as {(file, header): line number}, errors) from the document."""
    rows, exceptions, errors = [], {}, []
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not rows:
        head = cells(lines[i]) if lines[i].lstrip().startswith("|") else []
        if "folder" in head and "may include" in head:
            fcol, icol = head.index("folder"), head.index("may include")
            i += 2  # the header and its --- line
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                c = cells(lines[i])
                if len(c) != len(head):
                    errors.append(f"line {i + 1}: a table row of {len(c)} cells, not {len(head)}")
                else:
                    folders = [f.rstrip("/") for f in TICKS.findall(c[fcol])]
                    unchecked = c[icol].lower().startswith("anything")
                    rows.append(Row(len(rows), folders, TICKS.findall(c[icol]), unchecked))
                i += 1
        i += 1
    if not rows:
        errors.append('no table with the columns "folder" and "may include"')
    in_list = False
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            in_list = False
        elif line.startswith("Known exceptions"):
            in_list = True
        elif in_list and line.startswith("- "):
            m = EXCEPTION.match(line)
            if m:
                exceptions[(m.group(1), m.group(2))] = n
            else:
                errors.append(f"line {n}: an exception must read - `FILE` includes `HEADER`: why")
    return rows, exceptions, errors


def row_of(path, rows):
    """The row whose folder is the longest prefix of the file `path`, or None."""
    best, length = None, -1
    for r in rows:
        for f in r.folders:
            if path.startswith(f + "/") and len(f) > length:
                best, length = r, len(f)
    return best


def allows(entry, header):
    if entry.endswith("/*"):
        return header.startswith(entry[:-1])
    if entry.endswith(SOURCE_EXTS):
        return header == entry
    return header.startswith(entry + "/")


def check_table(root, rows):
    errors, seen = [], {}
    for r in rows:
        for f in r.folders:
            if f in seen:
                errors.append(f"layer table: `{f}` is in two rows")
            seen[f] = r
            if not os.path.isdir(os.path.join(root, f)):
                errors.append(f"layer table: row `{f}` names no folder")
        for e in r.entries:
            base = e[:-2] if e.endswith("/*") else e
            if not os.path.exists(os.path.join(root, base)):
                errors.append(f"layer table: row {r.name()}: `{e}` names nothing")
                continue
            if e.endswith("/*"):
                targets = {x for x in rows for f in x.folders if f.startswith(base + "/")}
            else:
                targets = {row_of(e if e.endswith(SOURCE_EXTS) else e + "/", rows)} - {None}
            for t in targets:
                if t.index >= r.index:
                    errors.append(f"layer table: row {r.name()} may include `{e}`, which is not "
                                  f"below it (row {t.name()}): list it as a known exception")
    return errors


def sources(root, rows):
    tops = sorted({f.split("/")[0] for r in rows for f in r.folders})
    for top in tops:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_EXTS):
                    yield os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")


def resolve(root, path, inc):
    """The project header `inc` names from file `path` (as the compiler looks: the including
    file's folder, then the root), or None for a header outside the project."""
    local = os.path.normpath(os.path.join(os.path.dirname(path), inc)).replace(os.sep, "/")
    if os.path.isfile(os.path.join(root, local)):
        return local
    return inc if os.path.isfile(os.path.join(root, inc)) else None


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: check_includes.py ROOT [DOC]", file=sys.stderr)
        return 2
    root = argv[1]
    doc = argv[2] if len(argv) == 3 else os.path.join(root, "ARCHITECTURE.md")
    with open(doc, encoding="utf-8") as f:
        rows, exceptions, errors = parse_doc(f.read())
    errors += check_table(root, rows)
    bad, files, checked, used = [], 0, 0, set()
    for path in sources(root, rows):
        files += 1
        row = row_of(path, rows)
        if row is None:
            errors.append(f"{path}: its folder is not in the layer table")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                header = m and resolve(root, path, m.group(1))
                if not header or row.unchecked:
                    continue
                checked += 1
                target = row_of(header, rows)
                if target is row or any(allows(e, header) for e in row.entries):
                    continue
                if (path, header) in exceptions:
                    used.add((path, header))
                    continue
                where = f"row {target.name()}" if target else "no row"
                bad.append(f'{path}:{n}: includes "{header}" ({where}), which row {row.name()} '
                           f"may not include ({os.path.basename(doc)}'s layer table; a "
                           "file-to-header exception goes under Known exceptions)")
    for (path, header), n in sorted(exceptions.items(), key=lambda x: x[1]):
        if (path, header) not in used:
            errors.append(f"line {n}: known exception `{path}` includes `{header}` is not needed "
                          "(no such include, or the table allows it): remove it")
    for line in bad + errors:
        print(line)
    summary = (f"{len(bad)} disallowed include(s) of {checked} project includes checked in "
               f"{files} files ({len(used)} by a listed exception), {len(errors)} table error(s)")
    print(("layering: ok: " if not bad and not errors else "layering: FAILED: ") + summary)
    return 0 if not bad and not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
