#!/usr/bin/env python3
# scripts/check-lists.py -- the lists that must stay complete are checked
# against the code, not kept by hand:
#
#   settings  every setting the code defines (DefineCustom*Variable) is a row
#             of doc/configuration.md's table and a line of src/hooks.c's
#             settings list, under the file that defines it; neither lists
#             one the code does not define;
#   hooks     every server hook and callback src/hooks.c installs heads an
#             entry of its header's table (a syscache callback: its cache
#             names an entry), and every file whose entry point the hook
#             calls is listed under that entry;
#   files     every file of src/ has its line in doc/DESIGN.md's map of
#             src/, and every file the map names exists.
#
# (The list of code copied from PostgreSQL is scripts/check-drift.py's.)
#
# usage: check-lists.py [LABELAM-DIR]     exit 1 naming what is missing
import importlib.util
import os
import re
import sys

HOOKS_C = 'src/hooks.c'
CONFIG_MD = 'doc/configuration.md'
DESIGN_MD = 'doc/DESIGN.md'

bad = 0


def problem(text):
    global bad
    bad += 1
    print(text)


def cycles_module():
    """scripts/check-cycles.py, for its reading of names and definitions"""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-cycles.py')
    spec = importlib.util.spec_from_file_location('check_cycles', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_comment(text):
    end = text.find('*/')
    return [re.sub(r'^ \*', '', line) for line in text[:end].split('\n')]


def settings_in_code(top):
    """{setting: defining file, relative to src/}"""
    found = {}
    for d, _, names in os.walk(os.path.join(top, 'src')):
        for n in names:
            if n.endswith('.c'):
                path = os.path.join(d, n)
                for m in re.finditer(r'DefineCustom\w+Variable\(\s*"([\w.]+)"',
                                     open(path).read()):
                    found[m.group(1)] = os.path.relpath(path, os.path.join(top, 'src'))
    return found


def check_settings(top, hooks_text):
    code = settings_in_code(top)
    table = set(re.findall(r'^\| `([\w.]+)` \|',
                           open(os.path.join(top, CONFIG_MD)).read(), re.M))
    for name in sorted(set(code) - table):
        problem(f'{CONFIG_MD}: setting {name} ({code[name]}) is not in the table')
    for name in sorted(table - set(code)):
        problem(f'{CONFIG_MD}: the table lists {name}, which the code does not define')
    listed, current, inlist = {}, None, False
    for line in header_comment(hooks_text):
        if 'Settings are defined by' in line:
            inlist = True
            continue
        if not inlist:
            continue
        m = re.match(r'\t([\w/]+\.c)\s', line)
        if m:
            current = m.group(1)
        for name in re.findall(r'\b((?:labelam|sepgsql)\.[a-z_]{2,})\b', line):
            listed[name] = current
    for name in sorted(code):
        if name not in listed:
            problem(f'{HOOKS_C}: setting {name} ({code[name]}) is not in the settings list')
        elif listed[name] != code[name]:
            problem(f'{HOOKS_C}: setting {name} is listed under {listed[name]}, '
                    f'defined in {code[name]}')
    for name in sorted(set(listed) - set(code)):
        problem(f'{HOOKS_C}: the settings list names {name}, which the code does not define')
    return len(code)


def hook_table(hooks_text):
    """[(heading, text of its entries)] of hooks.c's header table"""
    entries, inlist = [], False
    for line in header_comment(hooks_text):
        if 'Settings are defined by' in line:
            break
        m = re.match(r'\t(\S.*)$', line)
        if m and not inlist and m.group(1).startswith('ProcessUtility'):
            inlist = True
        if not inlist:
            continue
        if m:
            entries.append([m.group(1), ''])
        elif entries:
            entries[-1][1] += line + '\n'
    return entries


def function_body(text, name):
    m = re.search(r'^%s\(.*?^\}' % re.escape(name), text, re.M | re.S)
    return m.group(0) if m else ''


def check_hooks(top, hooks_text, cc):
    code = cc.strip(hooks_text)
    install = function_body(code, 'labelam_hooks_install')
    installed = []
    for m in re.finditer(r'(\w+_hook)\s*=\s*(labelam_\w+);', install):
        installed.append((m.group(1), [m.group(1), m.group(1)[:-len('_hook')]], m.group(2)))
    for m in re.finditer(r'(Register(?:Sub)?XactCallback|CacheRegisterRelcacheCallback)'
                         r'\((labelam_\w+)', install):
        installed.append((m.group(1), [m.group(1)], m.group(2)))
    for m in re.finditer(r'CacheRegisterSyscacheCallback\((\w+),\s*(labelam_\w+)', install):
        installed.append((f'CacheRegisterSyscacheCallback({m.group(1)})',
                          ['CacheRegisterSyscacheCallback', m.group(1)], m.group(2)))
    if not installed:
        problem(f'{HOOKS_C}: found no hook installed in labelam_hooks_install()')
    # who defines what (a unit is a .c and its header)
    files = cc.read_tree(top)
    owner = {}
    for p, text in files.items():
        for name in cc.definitions(p, cc.strip(text), p.endswith('.h')):
            owner.setdefault(name, set()).add(cc.unit_of(p, files))
    table = hook_table(hooks_text)
    for what, words, wrapper in installed:
        # a syscache callback: its cache names the entry; any other: the
        # hook's name, with or without "_hook", or the registering function
        wanted = words[-1:] if what.startswith('CacheRegisterSyscacheCallback') else words
        heads = [(h, body) for h, body in table
                 if any(re.search(r'(?<![\w.])%s(?![\w])' % re.escape(w), h)
                        for w in wanted)]
        if not heads:
            problem(f'{HOOKS_C}: {what} is installed but heads no entry of the header\'s table')
            continue
        head, body = heads[0]
        for callee in sorted(set(re.findall(r'\b(\w+)\s*\(', function_body(code, wrapper)))):
            units = owner.get(callee, set())
            if len(units) != 1:
                continue
            unit = next(iter(units))
            if unit == HOOKS_C:
                continue
            rel = os.path.relpath(unit, 'src')
            if rel not in head + '\n' + body:
                problem(f'{HOOKS_C}: {what} calls {callee}() of {rel}, '
                        f'which its entry "{head.strip()}" does not list')
    return len(installed)


def check_map(top):
    text = open(os.path.join(top, DESIGN_MD)).read()
    start = text.find('## Map of `src/`')
    if start < 0:
        problem(f'{DESIGN_MD}: no "## Map of `src/`" section')
        return 0
    end = text.find('\n## ', start + 1)
    section = re.sub(r'<!--.*?-->', '', text[start:end], flags=re.S)
    named, folders = set(), []
    for line in section.split('\n'):
        m = re.match(r'^( *)- (.*)$', line)
        if not m:
            continue
        indent, rest = len(m.group(1)), m.group(2)
        head = re.split(r':\s| \(', rest, 1)[0]
        folders = [(i, f) for i, f in folders if i < indent]
        base = folders[-1][1] if folders else ''
        for token in re.findall(r'`([^`]+)`', head):
            path = token if token.startswith('src/') else base + token
            if path.endswith('/'):
                folders.append((indent, path))
            else:
                named.add(path)
    present = set()
    for d, _, names in os.walk(os.path.join(top, 'src')):
        for n in names:
            if n.endswith(('.c', '.h')):
                present.add(os.path.relpath(os.path.join(d, n), top))
    for path in sorted(present - named):
        problem(f'{DESIGN_MD}: {path} has no line in the map of src/')
    for path in sorted(named - present):
        problem(f'{DESIGN_MD}: the map of src/ names {path}, which does not exist')
    return len(present)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else '.'
    cc = cycles_module()
    hooks_text = open(os.path.join(top, HOOKS_C)).read()
    nsettings = check_settings(top, hooks_text)
    nhooks = check_hooks(top, hooks_text, cc)
    nfiles = check_map(top)
    print(f'{nsettings} settings, {nhooks} hooks and callbacks, {nfiles} files of src/: '
          f'{"every list complete" if not bad else f"{bad} problem(s)"}')
    sys.exit(1 if bad else 0)


main()
