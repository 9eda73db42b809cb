#!/usr/bin/env python3
# scripts/check-cycles.py -- the direction of labelam's source: no two files
# under src/ use each other, directly or through others (a cycle), outside
# src/objects (contrib/sepgsql's own layout, kept as it is for the drift
# check), and no subsystem uses one above it:
#
#     label_store  <  avc, lbac  <  am  <  label_sql, objects, files
#                                                  <  hooks.c, labelam.c
#
# (pg_compat.h, below them all, may be used by any).  lbac is a provider
# of the avc (provider.h; settings.c lists it with selinux.c and sepol.c),
# so it shares the avc's layer; files uses the am and the object checks.  A file is a unit
# together with the header of the same name beside it (summary.c and
# summary.h); any other header is a unit of its own.  Unit A uses unit B when
# A names something that B alone defines -- a function or variable defined in
# B.c, or a macro, type, enumerator or inline function of B's header -- and
# that name is declared in a header A #includes (directly or through other
# headers): names are read from the #include lines and the code, without a
# compiler, with comments and string literals removed.  A use of a name
# defined in two places is not counted.
#
# usage: check-cycles.py [LABELAM-DIR]          exit 1 on a cycle or a wrong
#        check-cycles.py --uses [LABELAM-DIR]   direction; --uses prints
#                                                every use, "A -> B: names"
import os
import re
import sys

LAYERS = {'pg_compat': 0, 'label_store': 1, 'avc': 2, 'lbac': 2, 'am': 3,
          'label_sql': 4, 'objects': 4, 'files': 4, 'top': 5}
CYCLES_ALLOWED = 'src/objects/'

IDENT = re.compile(r'[A-Za-z_]\w*')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip(text):
    """text without comments, string and character literals (lines kept)"""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def top_level(code):
    """(chunk, ends_with) pieces of code at brace depth 0, preprocessor
    lines left out: a declaration or the head of a definition each"""
    code = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', '', code, flags=re.M)
    chunks, depth, start, i = [], 0, 0, 0
    init = False
    while i < len(code):
        c = code[i]
        if c == '{':
            if depth == 0:
                head = code[start:i]
                init = head.rstrip().endswith('=') or '=' in head
                if not init:
                    chunks.append((head, '{'))
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0 and not init:
                start = i + 1
        elif c == ';' and depth == 0:
            chunks.append((code[start:i], ';'))
            start = i + 1
            init = False
        i += 1
    return chunks


def definitions(path, code, is_header):
    """names path defines for others (not static, unless an inline header)"""
    names = set()
    for chunk, end in top_level(code):
        words = IDENT.findall(chunk)
        if not words:
            continue
        if is_header:
            m = re.search(r'(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$', chunk)
            if end == '{' and m and 'inline' in words:
                names.add(m.group(1))
            if words[0] == 'typedef':
                m = re.search(r'(\w+)\s*(?:\[[^]]*\])?\s*$', chunk)
                if m:
                    names.add(m.group(1))
                m = re.search(r'\(\s*\*\s*(\w+)\s*\)', chunk)
                if m:
                    names.add(m.group(1))
            continue
        if 'static' in words or 'extern' in words or 'typedef' in words:
            continue
        if end == '{':
            m = re.search(r'(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$', chunk)
            if m:
                names.add(m.group(1))
        else:
            # a variable: "type name [= init]", not a macro's call
            decl = chunk.split('=')[0]
            if '(' in decl:
                continue
            m = re.search(r'(\w+)\s*(?:\[[^]]*\])*\s*(?:\w+\s*)?$', decl)
            if m and len(IDENT.findall(decl)) >= 2:
                name = IDENT.findall(decl.split('[')[0])
                names.add(name[-1] if name[-1] != 'LABELAM_HIDDEN' else name[-2])
    if is_header:
        names |= set(re.findall(r'^\s*#\s*define\s+(\w+)', code, re.M))
        for body in re.findall(r'\benum\s*\w*\s*\{([^}]*)\}', code):
            names |= set(re.findall(r'(?:^|,)\s*(\w+)', body))
        names |= set(re.findall(r'\b(?:struct|enum)\s+(\w+)\s*\{', code))
    return names


def unit_of(path, files):
    """a .c with the .h of the same name beside it, else the file itself"""
    base, ext = os.path.splitext(path)
    if ext == '.h' and base + '.c' in files:
        return base + '.c'
    return path


def layer(unit):
    parts = unit.split('/')
    if len(parts) == 2:
        return LAYERS.get(os.path.splitext(parts[1])[0], LAYERS['top'])
    return LAYERS[parts[1]]


def resolve(inc, frm, files):
    for cand in (os.path.normpath(os.path.join(os.path.dirname(frm), inc)),
                 'src/' + inc):
        if cand in files:
            return cand
    return None


def read_tree(top):
    files = {}
    for d, _, names in os.walk(os.path.join(top, 'src')):
        for n in names:
            if n.endswith(('.c', '.h')):
                path = os.path.relpath(os.path.join(d, n), top)
                files[path] = open(os.path.join(d, n)).read()
    return files


def without_declarations(code):
    """code without its extern declarations, which name without using"""
    return re.sub(r'^extern\b[^;]*;', '', code, flags=re.M)


def uses(top):
    files = read_tree(top)
    code = {p: strip(t) for p, t in files.items()}
    includes = {p: [r for r in (resolve(i, p, files) for i in INCLUDE.findall(t))
                    if r] for p, t in files.items()}

    def closure(p, seen=None):
        seen = set() if seen is None else seen
        for q in includes[p]:
            if q not in seen:
                seen.add(q)
                closure(q, seen)
        return seen

    owners = {}
    for p in files:
        for name in definitions(p, code[p], p.endswith('.h')):
            owners.setdefault(name, set()).add(unit_of(p, files))
    owner = {n: u.pop() for n, u in owners.items() if len(u) == 1}

    members = {}
    for p in files:
        members.setdefault(unit_of(p, files), []).append(p)

    edges = {}
    for unit, paths in members.items():
        visible = set()
        for p in paths:
            visible |= {n for q in closure(p) for n in IDENT.findall(code[q])}
        for p in paths:
            for name in set(IDENT.findall(without_declarations(code[p]))):
                other = owner.get(name)
                if other and other != unit and name in visible:
                    edges.setdefault(unit, {}).setdefault(other, set()).add(name)
    return members, edges


def cycles(units, edges):
    """strongly connected components of more than one unit (Tarjan)"""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(units):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    show = '--uses' in args
    args = [a for a in args if a != '--uses']
    top = args[0] if args else '.'
    members, edges = uses(top)
    if show:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'{a} -> {b}: {", ".join(sorted(edges[a][b]))}')
        return
    bad = 0
    for comp in cycles(members, edges):
        if all(u.startswith(CYCLES_ALLOWED) for u in comp):
            continue
        bad += 1
        print(f'cycle: {" ".join(comp)}')
        for a in comp:
            for b in comp:
                if b in edges.get(a, {}):
                    print(f'  {a} -> {b}: {", ".join(sorted(edges[a][b]))}')
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if layer(b) > layer(a):
                bad += 1
                print(f'upward: {a} -> {b}: {", ".join(sorted(edges[a][b]))}')
    n = sum(len(v) for v in edges.values())
    print(f'{len(members)} units, {n} uses: '
          f'{"no cycle, every use downward" if not bad else f"{bad} problem(s)"}')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
