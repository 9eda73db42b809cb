#!/usr/bin/env python3
# scripts/check-paths.py -- every source file of labelam names its own path
# in its header block (its first lines), as PostgreSQL's files do, so that a
# file read out of context (a patch, a stack trace, a printout) says where
# it lives.  Source files: src/ (C), sql/ (the extension script's parts),
# scripts/, bench/, test/t/ (the TAP helpers and oracles), test/sepgsql.
#
# usage: check-paths.py [LABELAM-DIR]     exit 1 naming each file that does not
import os
import sys

WHERE = [('src', ('.c', '.h')), ('sql', ('.sql',)),
         ('scripts', ('.sh', '.py', '.sql')), ('bench', ('.sh', '.c')),
         ('test/t', ('.pl', '.pm', '.py')), ('test/sepgsql', ('',))]
HEAD_LINES = 12


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else '.'
    bad = n = 0
    for folder, exts in WHERE:
        for d, _, names in os.walk(os.path.join(top, folder)):
            for name in sorted(names):
                path = os.path.relpath(os.path.join(d, name), top)
                if not name.endswith(exts) or '/results/' in path or \
                        name.endswith(('.o', '.so', '.bc')):
                    continue
                n += 1
                with open(os.path.join(top, path), errors='replace') as f:
                    head = ''.join(f.readline() for _ in range(HEAD_LINES))
                if path not in head:
                    print(f'{path}: its header block does not name its path')
                    bad += 1
    print(f'{n} source files: '
          f'{"each names its path" if not bad else f"{bad} do not"}')
    sys.exit(1 if bad else 0)


main()
