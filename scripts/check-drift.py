#!/usr/bin/env python3
# scripts/check-drift.py -- labelam's copies of PostgreSQL code against the
# PostgreSQL source of one major.
#
# The list of copies is read from the copies' own header comments (the one
# source of truth): a file under src/ that holds copied code says, in its
# first comment,
#
#     Copies, whose upstream text scripts/check-drift.py compares with each
#     major's source (sha256 prefixes):
#         src/backend/access/heap/heapam.c
#           heap_insert()           15: 0123456789abcdef, 18: fedcba9876543210
#         contrib/sepgsql/dml.c
#           (whole file)            15: ..., 18: ...
#
# (a path names the upstream file of the records below it; a record is a
# function, "name()", or "(whole file)", followed by "MAJOR: prefix" pairs;
# the block may wrap anywhere and ends at an empty comment line).  "MAJOR:
# none" records that the copy is not compiled against that major (a #if
# PG_VERSION_NUM block).
#
# usage: check-drift.py POSTGRESQL-SOURCE-DIR LABELAM-DIR MAJOR
#   Each copied function's upstream text (from the line before its name --
#   "static" or its return type -- to its closing brace), or each copied
#   whole file, must still hash to the prefix recorded for that major.  It
#   proves that upstream did not change what was copied, nothing about the
#   copy itself: a minor release that changed a copied function fails here
#   (bring the copy up to date, with a #if block where majors differ, and
#   the recorded hash with it); a major with no recorded hash fails too (a
#   new major's copies must be looked at before they are trusted).
#   Prints one "ok"/"n/a"/"DRIFT" line per copy; exit 1 on any drift.
#
# usage: check-drift.py LABELAM-DIR
#   Checks, without any PostgreSQL source, that the list is complete: every
#   copied function recorded in a header is marked where its copy begins,
#   by a comment starting "upstream NAME()", and every such mark is
#   recorded; every .c file that carries the PostgreSQL Global Development
#   Group's copyright records its copies; every file of src/am/heap but
#   its header heap.h is a copy.  (make test runs this as a static check.)
#
# usage: check-drift.py --hunks POSTGRESQL-SOURCE-DIR LABELAM-DIR MAJOR
#   For review: each copied function's code (comments and layout left out)
#   against its upstream code, and the differing hunks that no labelam
#   marker is near.  labelam's markers inside a copy: a comment whose text
#   starts with "labelam" -- "/* labelam: why */" before the lines it
#   changes, "/* labelam */" at the end of a changed line; the copy's own
#   "upstream NAME()" comment marks its renamed declaration --, the names
#   labelam gives (labelam_..., labelheap_..., Labelheap...), which mark
#   themselves, #if blocks, the majors' differences, which the conditional
#   marks, and "(char *) &" casts that 15's signatures need (not counted).
#
# usage: check-drift.py --files LABELAM-DIR   the upstream files it reads
#        check-drift.py --list LABELAM-DIR    the copies it reads
import hashlib
import os
import re
import sys

BLOCK_START = 'Copies, whose upstream text scripts/check-drift.py compares'
RECORD = re.compile(
    r'((?:src|contrib)/[\w/.-]+\.[ch])'          # an upstream file
    r'|(?:(\w+)\(\)|\(whole file\))\s+'         # a record of it
    r'((?:\d+:\s*(?:[0-9a-f]{16}|none)(?:,\s*)?)+)')
MARK = re.compile(r'\bupstream (\w+)\(\)')
PGDG = 'PostgreSQL Global Development Group'
HEAP_COPIES = 'src/am/heap/'
HEAP_HEADER = 'src/am/heap/heap.h'      # the copies' entry points, declared


def header_text(text):
    """the file's first comment, its lines joined without the ' * '"""
    end = text.find('*/')
    body = text[:end if end >= 0 else 6000]
    return ' '.join(re.sub(r'^\s*/?\*+\s?', '', line).strip()
                    for line in body.split('\n'))


def header_block(text):
    """the copies' block of the first comment, or None"""
    end = text.find('*/')
    lines = text[:end if end >= 0 else 6000].split('\n')
    for i, line in enumerate(lines):
        if BLOCK_START in ' '.join(lines[i:i + 2]):
            block = []
            for line in lines[i + 1:]:
                line = re.sub(r'^\s*\*\s?', '', line).strip()
                if line == '':
                    break
                block.append(line)
            return ' '.join(block)
    return None


def copies(top):
    """[(ours, theirs, function or None, {major: prefix or 'none'})]"""
    found = []
    for d, _, names in sorted(os.walk(os.path.join(top, 'src'))):
        for n in sorted(names):
            if not n.endswith(('.c', '.h')):
                continue
            path = os.path.join(d, n)
            ours = os.path.relpath(path, top)
            block = header_block(open(path).read())
            if block is None:
                continue
            theirs = None
            for m in RECORD.finditer(block):
                if m.group(1):
                    theirs = m.group(1)
                    continue
                if theirs is None:
                    sys.exit(f'{ours}: a copy recorded before its upstream file')
                hashes = dict(re.findall(r'(\d+):\s*([0-9a-f]{16}|none)',
                                         m.group(3)))
                found.append((ours, theirs, m.group(2), hashes))
    return found


def upstream_text(path, func):
    text = open(path).read()
    if func is None:
        return text
    lines = text.split('\n')
    for i, line in enumerate(lines):
        # a definition: the name at the start of a line, its return type
        # (or "static ...") alone on the line before
        if line.startswith(func + '(') and i > 0 and lines[i - 1] and \
                not lines[i - 1].endswith((';', '*/', ',')) and \
                not lines[i - 1].startswith(('#', ' ', '\t', '*')):
            end = lines.index('}', i)
            return '\n'.join(lines[i - 1:end + 1]) + '\n'
    return None


def copy_text(path, func):
    """the copy of func in path: from its "upstream func()" mark to the end
    of the function defined next, or None"""
    lines = open(path).read().split('\n')
    for i, line in enumerate(lines):
        if re.search(r'\bupstream %s\(\)' % func, line):
            break
    else:
        return None
    j = i
    while j < len(lines) and not re.match(r'^[A-Za-z_]\w*\(', lines[j]):
        j += 1
    if j == len(lines) or '}' not in lines[j:]:
        return None
    start = i               # the whole comment the mark is in
    while start > 0 and '/*' not in lines[start] and \
            not lines[start].lstrip().startswith('//'):
        start -= 1
    return '\n'.join(lines[start:lines.index('}', j) + 1])


def code_lines(text):
    """text's code, a line each, layout and comments left out but labelam's"""
    text = re.sub(r'/\*.*?\*/', lambda m: ' labelam ' if
                  re.sub(r'^[\s*]+', '', m.group(0)[2:]).startswith(
                      ('labelam', 'upstream')) else ' ', text, flags=re.S)
    # (char *) before a pointer argument: what 15's void-less signatures
    # (XLogRegisterData ...) need, a no-op on later majors
    text = text.replace('(char *) &', '&')
    return [re.sub(r'\s+', ' ', line).strip() for line in text.split('\n')
            if line.strip()]


def list_hunks(src, top, major):
    import difflib
    unmarked = 0
    for ours, theirs, func, hashes in copies(top):
        if func is None or hashes.get(major) in (None, 'none'):
            continue
        up = upstream_text(f'{src}/{theirs}', func)
        mine = copy_text(f'{top}/{ours}', func)
        if up is None or mine is None:
            print(f'{ours}: {func}(): not compared (a part of a function)')
            continue
        a, b = code_lines(up), code_lines(mine)
        # lines inside #if blocks: the majors' differences, which the
        # conditional itself marks (the header says what they are)
        depth, inside = 0, []
        for line in b:
            if re.match(r'#\s*if', line):
                depth += 1
            inside.append(depth > 0 or line.startswith('#'))
            if re.match(r'#\s*endif', line):
                depth -= 1
        n = 0
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
                None, a, b, autojunk=False).get_opcodes():
            if tag == 'equal' or \
                    re.search(r'(?i)labelam|labelheap', ' '.join(b[max(0, j1 - 4):j2 + 1])) or \
                    (j2 > j1 and all(inside[j1:j2])):
                continue
            n += 1
            print(f'{ours}: {func}(): upstream {a[i1:i2]} -> copy {b[j1:j2]}')
        unmarked += n
    print(f'{unmarked} differing hunks without a labelam marker near them')


def hashes_of(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_complete(top):
    """the list against the copies' marks; exit 1 if they differ"""
    listed = copies(top)
    bad = 0
    recorded = {}
    for ours, theirs, func, _ in listed:
        recorded.setdefault(ours, set())
        if func:
            recorded[ours].add(func)
    for d, _, names in sorted(os.walk(os.path.join(top, 'src'))):
        for n in sorted(names):
            if not n.endswith(('.c', '.h')):
                continue
            ours = os.path.relpath(os.path.join(d, n), top)
            text = open(os.path.join(d, n)).read()
            end = text.find('*/')
            marked = set(MARK.findall(text[end:] if end >= 0 else text))
            copy = ours in recorded
            if ours.endswith('.c') and PGDG in header_text(text) and not copy:
                print(f'{ours}: carries PostgreSQL\'s copyright but records no copy '
                      f'("{BLOCK_START} ...")')
                bad += 1
            if ours.startswith(HEAP_COPIES) and ours != HEAP_HEADER and not copy:
                print(f'{ours}: in {HEAP_COPIES}, which holds copies only, '
                      'but records no copy')
                bad += 1
            for func in sorted(recorded.get(ours, set()) - marked):
                print(f'{ours}: {func}() is recorded, but no "upstream {func}()" '
                      'comment marks where its copy begins')
                bad += 1
            for func in sorted(marked - recorded.get(ours, set())):
                print(f'{ours}: "upstream {func}()" marks a copy that its header '
                      'does not record (scripts/check-drift.py cannot check it)')
                bad += 1
    print(f'{len(listed)} copies in {len(recorded)} files: '
          f'{"every one recorded and marked" if not bad else f"{bad} problem(s)"}')
    sys.exit(1 if bad else 0)


def check_drift(src, top, major):
    bad = 0
    for ours, theirs, func, hashes in copies(top):
        name = f'{func}()' if func else theirs
        want = hashes.get(major)
        if want is None:
            print(f'DRIFT {ours}: {name}: no hash recorded for PostgreSQL {major} '
                  '(look at the copy against that major, then record it)')
            bad += 1
            continue
        if want == 'none':
            print(f'n/a {ours}: {name} not compiled against PostgreSQL {major}')
            continue
        text = upstream_text(f'{src}/{theirs}', func)
        if text is None:
            print(f'DRIFT {ours}: {name} not found in {theirs}')
            bad += 1
            continue
        got = hashes_of(text)
        if got == want:
            print(f'ok {ours}: {name} unchanged upstream in {major} ({got})')
        else:
            print(f'DRIFT {ours}: {name} changed upstream in {major} ({want} -> {got})')
            bad += 1
    sys.exit(1 if bad else 0)


def main():
    args = sys.argv[1:]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    if args[:1] == ['--files']:
        top = args[1] if len(args) > 1 else here
        print('\n'.join(sorted({theirs for _, theirs, _, _ in copies(top)})))
    elif args[:1] == ['--list']:
        top = args[1] if len(args) > 1 else here
        for ours, theirs, func, hashes in copies(top):
            print(ours, theirs, f'{func}()' if func else '(whole file)',
                  ', '.join(f'{k}: {v}' for k, v in sorted(hashes.items())))
    elif args[:1] == ['--hunks'] and len(args) == 4:
        list_hunks(*args[1:])
    elif len(args) == 1:
        check_complete(args[0])
    elif len(args) == 3:
        check_drift(*args)
    else:
        sys.exit('usage: check-drift.py POSTGRESQL-SOURCE-DIR LABELAM-DIR MAJOR\n'
                 '       check-drift.py LABELAM-DIR\n'
                 '       check-drift.py --hunks POSTGRESQL-SOURCE-DIR LABELAM-DIR MAJOR\n'
                 '       check-drift.py --files|--list [LABELAM-DIR]')


main()
