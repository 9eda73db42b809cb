#!/usr/bin/env python3
# scripts/check-drift.py -- labelam's copies of PostgreSQL functions against
# the PostgreSQL source they were copied from.  Each copied function's upstream
# text (from its "static" line to its closing brace) must still hash to the
# sha256 prefix recorded in the copying file's header; a minor release that
# changed one fails here, and the copy must be brought up to date (and the
# recorded hash with it).
#
# usage: check-drift.py POSTGRESQL-SOURCE-DIR LABELAM-DIR
# Prints one "ok"/"DRIFT" line per function; exit 1 on any drift.
import hashlib
import re
import sys

COPIES = [
    # (labelam file, upstream file, upstream function)
    ('src/am/index_build.c', 'src/backend/access/heap/heapam_handler.c',
     'heapam_index_build_range_scan'),
    ('src/am/index_validate.c', 'src/backend/access/heap/heapam_handler.c',
     'heapam_index_validate_scan'),
    ('src/am/index_scan.c', 'src/backend/access/heap/heapam_handler.c',
     'heapam_scan_get_blocks_done'),
    ('src/am/skip.c', 'src/backend/access/heap/heapam.c',
     'heapgettup_pagemode'),
    ('src/am/insert.c', 'src/backend/access/heap/heapam.c', 'heap_insert'),
    ('src/am/insert.c', 'src/backend/access/heap/heapam.c',
     'heap_prepare_insert'),
    ('src/am/insert.c', 'src/backend/access/heap/heapam.c',
     'log_heap_new_cid'),
    # whole files (function None): contrib/sepgsql's object checks
    ('src/objects/database.c', 'contrib/sepgsql/database.c', None),
    ('src/objects/schema.c', 'contrib/sepgsql/schema.c', None),
    ('src/objects/relation.c', 'contrib/sepgsql/relation.c', None),
    ('src/objects/proc.c', 'contrib/sepgsql/proc.c', None),
    ('src/objects/dml.c', 'contrib/sepgsql/dml.c', None),
]


def upstream_text(path, func):
    if func is None:
        return open(path).read()
    lines = open(path).read().split('\n')
    for i, line in enumerate(lines):
        # the definition: its name at the start of a line, after the line
        # with its (static or extern) return type
        if line.startswith(func + '(') and i > 0 and lines[i - 1] and \
                not lines[i - 1][0] in ' \t*/#{}' and not lines[i - 1].endswith(';'):
            end = lines.index('}', i)
            return '\n'.join(lines[i - 1:end + 1]) + '\n'
    return None


def main():
    src, top = sys.argv[1], sys.argv[2]
    bad = 0
    for ours, theirs, func in COPIES:
        header = open(f'{top}/{ours}').read(4000)
        # a file with several copies records one line per function,
        # "func(): sha256 prefix HASH (15.18), HASH (18.6)": any of them
        # matches (one per supported major)
        m = func and re.search(re.escape(func) + r'\(\): sha256 prefix ([^\n]*)', header)
        if m:
            recorded = re.findall(r'\b[0-9a-f]{16}\b', m.group(1))
        else:
            m = re.search(r'sha256 prefix ([0-9a-f]{16})', header)
            recorded = [m.group(1)] if m else []
        text = upstream_text(f'{src}/{theirs}', func)
        if not recorded or text is None:
            print(f'DRIFT {ours}: cannot find the recorded hash or {func or "the file"}()')
            bad += 1
            continue
        got = hashlib.sha256(text.encode()).hexdigest()[:16]
        what = f'{func}()' if func else theirs
        if got in recorded:
            print(f'ok {ours}: {what} unchanged upstream ({got})')
        else:
            print(f'DRIFT {ours}: {what} changed upstream ({", ".join(recorded)} -> {got})')
            bad += 1
    sys.exit(1 if bad else 0)


main()
