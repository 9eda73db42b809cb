#!/usr/bin/env python3
# scripts/check-links.py -- every relative link of labelam's documentation
# resolves: the file (or folder) it names exists, and the anchor it names
# (#heading) is a heading of that file, as GitHub makes anchors of headings.
# Links to other sites (http:, https:, mailto:) are not followed.  Reads
# every *.md file of the tree but results written by runs (bench/results).
#
# usage: check-links.py [LABELAM-DIR]     exit 1 naming each broken link
import os
import re
import sys

LINK = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
SKIP_DIRS = {'.git', 'results', 'tmp_check'}


def strip_code(text):
    """text without fenced blocks, indented code blocks, inline code and
    HTML comments (their links are not links); line numbers kept"""
    text = re.sub(r'<!--.*?-->', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    out, fenced, prev_blank = [], False, True
    for line in text.split('\n'):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            out.append('')
            continue
        if fenced or (line.startswith('    ') and prev_blank and
                      not re.match(r'\s*([-*+]|\d+\.)\s', line)):
            out.append('')
            # an indented block goes on until a line that is not indented
            prev_blank = prev_blank and (line.startswith('    ') or not line.strip())
            continue
        out.append(re.sub(r'`[^`]*`', '', line))
        prev_blank = not line.strip()
    return '\n'.join(out)


def slug(heading):
    """GitHub's anchor of a heading"""
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        text = open(path).read()
        text = re.sub(r'```.*?```', '', text, flags=re.S)
        for m in re.finditer(r'^#{1,6}\s+(.*?)\s*#*\s*$', text, re.M):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f'{base}-{n}')
        cache[path] = result
    return cache[path]


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    bad = n = files = 0
    for d, dirs, names in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for name in sorted(names):
            if not name.endswith('.md'):
                continue
            path = os.path.join(d, name)
            files += 1
            text = strip_code(open(path).read())
            for lineno, line in enumerate(text.split('\n'), 1):
                for m in LINK.finditer(line):
                    target = m.group(1)
                    if re.match(r'[a-z]+:', target):
                        continue
                    n += 1
                    file, _, anchor = target.partition('#')
                    dest = os.path.normpath(os.path.join(d, file)) if file else path
                    where = f'{os.path.relpath(path, top)}:{lineno}'
                    if not os.path.exists(dest):
                        print(f'{where}: {target}: no such file')
                        bad += 1
                    elif anchor and (not dest.endswith('.md') or
                                     anchor not in anchors(dest)):
                        print(f'{where}: {target}: no heading "#{anchor}" there')
                        bad += 1
    print(f'{n} relative links in {files} files: '
          f'{"every one resolves" if not bad else f"{bad} broken"}')
    sys.exit(1 if bad else 0)


main()
