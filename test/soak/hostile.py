# test/soak/hostile.py -- "make hostile": randomized hostile input through
# every entry point that takes a security label, corrupted COPY streams for
# restores, and truncated and bit-flipped policy files (issue 36;
# doc/reliability.md).
#
# usage (through scripts/soak.sh): hostile.py INPUTS SEED
#
# Each input must be refused with an error whose SQLSTATE the manual gives
# for that entry point (doc/reliability.md, "What the hostile-input run
# checks"), change nothing (every input runs in a transaction the run rolls
# back, and the label dictionary, in the catalog and in shared memory, must
# not gain an entry), and leave the server running (same postmaster start
# time, no backend lost).  Policy files: a broken one must be rejected
# (labelam.policy_info().rejected) while sessions go on deciding with the
# policy in force; a flipped bit that still loads as a policy is counted,
# not judged (the format has no checksum: see doc/reliability.md).
#
# Last line: hostile: inputs=N refused=R accepted=A crashes=C entries=E
# undocumented=U findings=V

import collections
import io
import os
import random
import re
import shutil
import sys
import time
import traceback

import psycopg2

import soaklib as L

INPUTS = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1

# SOAK_TRACE=FILE: every input, in order, one repr() a line (to replay)
TRACE = open(os.environ['SOAK_TRACE'], 'w') if os.environ.get('SOAK_TRACE') else None

S0 = L.SUBJECT + 's0'
ROW_S0 = L.ROW + 's0'
ROW_TOP = L.ROW + L.TOP_LEVEL

# The SQLSTATEs each entry point may answer hostile input with, as
# doc/reliability.md lists them.  22021: PostgreSQL's own check of the
# bytes (invalid UTF-8); 22023: labelam's label checks (malformed, over
# 4096 bytes, control characters, unknown to the policy, bad permission
# names); 42501: the policy refuses; 22004: a NULL permission; 25001: a
# one-way label change inside a transaction block; 22P04, 22P02, 23502:
# COPY's own format errors.
DOCUMENTED = {
    'insert_label': {'22023', '22021', '42501'},
    'label_column': {'22023', '22021', '42501'},
    'label_update': {'22023', '22021', '42501'},
    'copy_label': {'22023', '22021', '42501', '22P04'},
    'role_label': {'22023', '22021'},
    'set_client_label': {'22023', '22021', '42501', '25001'},
    'check_access': {'22023', '22021', '22004', '2202E'},
    'restore': {'22023', '22021', '42501', '22P04', '22P02', '23502', '22P05', '54000'},
}

LEVELS_OK = ['s0', 's1', 's3', 's1:c1', 's15:c0.c1023', 's0-s3', 's2:c0.c5,c9']
TYPES = ['sepgsql_table_t', 'sepgsql_secret_table_t', 'staff_t', 'shadow_t', 'unlabeled_t']


class Hostile:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.stats = collections.Counter()
        self.by_point = collections.Counter()
        self.states = collections.Counter()
        self.findings = []
        self.examples = {}

    def finding(self, what):
        self.findings.append(what)
        print('FINDING: ' + what, flush=True)

    # ---- set-up ------------------------------------------------------

    def setup(self):
        self.policy_dir = os.path.join(L.WORK, 'selinux', 'mls')
        self.policy = os.path.join(self.policy_dir, 'policy', os.path.basename(L.MLS_POLICY))
        os.makedirs(os.path.dirname(self.policy), exist_ok=True)
        shutil.copyfile(L.MLS_POLICY, self.policy)
        shutil.copytree(os.path.join(os.path.dirname(os.path.dirname(L.MLS_POLICY)), 'contexts'),
                        os.path.join(self.policy_dir, 'contexts'))
        with open(L.MLS_POLICY, 'rb') as f:
            self.good_policy = f.read()
        L.chown(os.path.join(L.WORK, 'selinux'))
        n = self.node = L.Node('hostile')
        n.initdb(["labelam.provider = 'sepol'",
                  "labelam.policy_file = '%s'" % self.policy,
                  "labelam.default_client_label = '%s'" % S0,
                  "labelam.object_checks = off",
                  "log_min_messages = log", "log_min_error_statement = panic"])
        n.start()
        n.query("""
            CREATE EXTENSION labelam;
            CREATE ROLE admin SUPERUSER LOGIN;
            CREATE ROLE h LOGIN;
            CREATE ROLE hrole LOGIN;
            INSERT INTO labelam.role_label VALUES ('admin', %s), ('h', %s);
            CREATE TABLE hc (k int, v text, lbl labelam.security_label) USING labelheap;
            CREATE TABLE ht (k int NOT NULL, v text) USING labelheap;
            CREATE TABLE ht_r (k int NOT NULL, v text) USING labelheap;
            GRANT ALL ON hc, ht, ht_r TO PUBLIC;""", args=(L.TOP, S0))
        # rows to update and a dump to corrupt: rows at s0 (h's), and, at
        # the top label, rows at several labels
        n.query("INSERT INTO hc VALUES (0, 'seed', NULL)", user='h')
        n.query("INSERT INTO ht VALUES (0, 'seed')", user='h')
        a = n.connect(user='admin')
        cur = a.cursor()
        cur.execute("INSERT INTO ht SELECT g, repeat(md5(g::text), g % 5) FROM generate_series(1, 40) g")
        cur.execute("SET labelam.update_label = %s", (ROW_S0,))
        cur.execute("UPDATE ht SET v = v WHERE k % 3 = 0 AND k > 0")
        cur.execute("RESET labelam.update_label")
        cur.execute("SET labelam.dump_labels = on")
        buf = io.StringIO()
        cur.copy_expert("COPY ht TO STDOUT", buf)
        self.dump = buf.getvalue()
        a.close()
        # sessions: h (s0) for the label entry points, admin for role_label
        # and the restores, and the checker's
        self.h = n.connect(user='h')
        self.admin = n.connect(user='admin')
        self.restorer = n.connect(user='admin', options='-c labelam.restore_labels=on')
        self.checker = n.connect(user='admin')
        for conn in (self.h, self.admin, self.restorer):
            self.after(conn)
        self.start_time, = self.check_q("SELECT pg_postmaster_start_time()")
        self.dict_count = self.dictionary()
        self.rows = self.row_counts()
        print('hostile: dictionary %s, rows %s, dump of %d lines' %
              (self.dict_count, self.rows, self.dump.count('\n')), flush=True)

    def check_q(self, sql, args=None):
        with self.checker.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchone()

    def dictionary(self):
        return self.check_q("SELECT (SELECT count(*) FROM labelam.pg_security), "
                            "(labelam.label_store_stats()).labels_by_secid")

    def row_counts(self):
        return self.check_q("SELECT (SELECT count(*) FROM hc), (SELECT count(*) FROM ht), "
                            "(SELECT count(*) FROM ht_r), (SELECT count(*) FROM labelam.role_label), "
                            "(SELECT string_agg(k || ':' || lbl, ',' ORDER BY k) FROM hc)")

    # ---- hostile label text --------------------------------------------

    def bad_label(self):
        """(text, must_fail): label text that no entry point may accept, or,
        with must_fail False, text that may happen to be a label (mutations
        of good labels), judged by its SQLSTATE only if refused."""
        rng = self.rng
        good = rng.choice([ROW_S0, ROW_TOP, S0, L.ROW + 's1:c1', L.TOP])
        kind = rng.randrange(12)
        if kind == 0:		# control characters
            i = rng.randrange(len(good) + 1)
            c = chr(rng.choice(list(range(1, 32)) + [127]))
            return good[:i] + c + good[i:], True
        if kind == 1:		# over-long
            n = rng.choice([4097, 4100, 5000, 65536, 1 << 20])
            return (good + ':' + 'c' * n)[:n], True
        if kind == 2:		# empty or blank
            return rng.choice(['', ' ', '  ', ':', ':::', '::::']), True
        if kind == 3:		# levels out of the policy
            lvl = rng.choice(['s16', 's99', 's-1', 's0:c1024', 's0:c5.c2', 's3-s0', 's0:c',
                              's0:c1,', 's0-', 's0:c0.c1023.c5', 's1:c1:c2', 'S0', 's0 ', ' s0',
                              's0:c99999999999999999999', 's' + '9' * 40])
            return L.ROW + lvl, True
        if kind == 4:		# unknown names
            parts = good.split(':', 3)
            i = rng.randrange(3)
            parts[i] = rng.choice(['nobody_u', 'x', 'object_r_', 'no_such_t', 'a' * 300,
                                   parts[i] + 'x', parts[i].upper()])
            return ':'.join(parts), True
        if kind == 5:		# fields missing or added
            parts = good.split(':')
            if rng.random() < 0.5 and len(parts) > 2:
                del parts[rng.randrange(3)]
            else:
                parts.insert(rng.randrange(4), rng.choice(['', 'x', 's0']))
            return ':'.join(parts), True
        if kind == 6:		# valid labels the session may not use
            return rng.choice(['system_u:object_r:shadow_t:s0', 'staff_u:object_r:sepgsql_table_t:s15',
                               'system_u:system_r:kernel_t:s15:c0.c1023',
                               'staff_u:object_r:sepgsql_secret_table_t:s2',
                               L.ROW + 's%d:c%d' % (rng.randint(1, 15), rng.randint(0, 1023))]), False
        if kind == 7:		# random printable garbage
            n = rng.randint(1, 120)
            return ''.join(chr(rng.randint(33, 126)) for _ in range(n)), False
        if kind == 8:		# random unicode
            n = rng.randint(1, 60)
            return ''.join(chr(rng.choice([rng.randint(0xa0, 0xd7ff), rng.randint(0xe000, 0x10ffff)]))
                           for _ in range(n)), True
        if kind == 9:		# SQL and format metacharacters
            return good + rng.choice(["'", '"', '\\', '%s', '%n', '$$', ';', '\\N', '\t', '\n',
                                      "'); DROP TABLE hc; --", '%%%%%%%%', '{', '}', ',']), False
        if kind == 10:		# mutations of a good label
            s = list(good)
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(s))
                op = rng.randrange(3)
                if op == 0:
                    s[i] = chr(rng.randint(33, 126))
                elif op == 1:
                    del s[i]
                else:
                    s.insert(i, chr(rng.randint(33, 126)))
            return ''.join(s), False
        # kind 11: many categories, valid or not
        cats = ','.join('c%d' % rng.randint(0, 1100) for _ in range(rng.randint(1, 400)))
        return L.ROW + 's0:' + cats, False

    # ---- running one input ---------------------------------------------

    def attempt(self, point, conn, sql, args=None, copy=None, must_fail=True):
        """Runs one input in the transaction the session is in (each
        session always has one open: see after()), then rolls it back.
        Returns the SQLSTATE, or None if the input was accepted."""
        self.stats['inputs'] += 1
        self.by_point[point] += 1
        if TRACE:
            TRACE.write(repr((point, sql, args, copy)) + '\n')
            TRACE.flush()
        state = None
        try:
            with conn.cursor() as cur:
                if sql:
                    cur.execute(sql, args)
                if copy is not None:
                    cur.copy_expert(copy[0], io.StringIO(copy[1]))
            self.stats['accepted'] += 1
        except psycopg2.Error as e:
            state = L.errcode(e) or 'connection'
            if conn.closed or state == 'connection':
                self.stats['crashes'] += 1
                self.keep_core()
                with open(os.path.join(self.node.dir, 'crash.%d.input' % self.stats['crashes']), 'w') as f:
                    f.write(repr((point, sql, args, copy)))
                self.finding('%s: the connection was lost (%s) on input %r' %
                             (point, str(e).strip()[:200], (sql, repr(args)[:200], copy and copy[1][:200])))
                raise ConnectionLost()
            self.stats['refused'] += 1
            self.states[(point, state)] += 1
            if state not in DOCUMENTED[point]:
                self.stats['undocumented'] += 1
                key = (point, state)
                if key not in self.examples:
                    self.examples[key] = (str(e).strip().split('\n')[0][:200], repr(args)[:200])
                    self.finding('%s: SQLSTATE %s is not among those documented (%s): %s; input %s' %
                                 ((point, state, ', '.join(sorted(DOCUMENTED[point]))) + self.examples[key]))
        except ValueError:
            # the driver refuses NUL bytes itself: nothing reached the server
            self.stats['driver_refused'] += 1
            state = 'driver'
        d = self.after(conn)
        if state is None and must_fail:
            self.finding('%s: hostile input accepted: %r' % (point, (sql, repr(args)[:300])))
        if d != self.dict_count:
            if state is not None:
                self.stats['entries'] += max(d[0] - self.dict_count[0], d[1] - self.dict_count[1], 1)
                self.finding('%s: the dictionary went from %s to %s on refused input %r' %
                             (point, self.dict_count, d, repr(args)[:300]))
            self.dict_count = d		# an accepted label may be interned
        return state

    def after(self, conn):
        """Rolls the input back, opens the next input's transaction and
        reads the dictionary's size (catalog rows, shared-memory entries),
        all in one round trip."""
        with conn.cursor() as cur:
            cur.execute("ROLLBACK; BEGIN; SELECT (SELECT count(*) FROM labelam.pg_security), "
                        "(labelam.label_store_stats()).labels_by_secid")
            return cur.fetchone()

    def label_input(self):
        rng = self.rng
        text, must_fail = self.bad_label()
        point = rng.choice(['insert_label', 'label_column', 'label_update', 'copy_label',
                            'role_label', 'set_client_label', 'check_access'])
        if point == 'insert_label':
            if text == '':
                must_fail = False	# empty: the policy chooses (documented)
            self.attempt(point, self.h, "SELECT set_config('labelam.insert_label', %s, true); "
                         "INSERT INTO ht VALUES (-1, 'hostile')", (text,), must_fail=must_fail)
        elif point == 'label_column':
            self.attempt(point, self.h, "INSERT INTO hc VALUES (-1, 'hostile', %s)", (text,),
                         must_fail=must_fail)
        elif point == 'label_update':
            self.attempt(point, self.h, "UPDATE hc SET lbl = %s WHERE k = 0", (text,),
                         must_fail=must_fail)
        elif point == 'copy_label':
            line = '-1\thostile\t%s\n' % copy_escape(text)
            self.attempt(point, self.h, None, copy=('COPY hc (k, v, lbl) FROM STDIN', line),
                         must_fail=must_fail)
        elif point == 'role_label':
            self.attempt(point, self.admin, "INSERT INTO labelam.role_label VALUES ('hrole', %s)",
                         (text,), must_fail=must_fail and True)
        elif point == 'set_client_label':
            self.attempt(point, self.h, "SELECT labelam.set_client_label(%s)", (text,),
                         must_fail=must_fail)
        else:
            which = rng.randrange(3)
            if which == 0:
                args = (text, ROW_S0, ['select'])
            elif which == 1:
                args = (S0, text, ['select'])
            else:
                args = (S0, ROW_S0, self.bad_perms())
            # a bad label is an error; a bad permission list too
            self.attempt('check_access', self.h, "SELECT labelam.check_access(%s, %s, %s)", args,
                         must_fail=must_fail if which < 2 else True)

    def bad_perms(self):
        rng = self.rng
        return rng.choice([[], [None], ['select', None], ['frob'], ['SELECT'], ['select '],
                           [''], ['select', 'x' * 5000], ['read'], ['select,update'],
                           [''.join(chr(rng.randint(33, 126)) for _ in range(rng.randint(1, 30)))]])

    # ---- corrupted restores ------------------------------------------------

    def restore_input(self):
        rng = self.rng
        lines = self.dump.splitlines(True)
        kind = rng.randrange(8)
        if kind == 0:		# a line cut short
            i = rng.randrange(len(lines))
            lines[i] = lines[i][:rng.randrange(len(lines[i]))] + '\n'
            data, must_fail = ''.join(lines), False
        elif kind == 1:		# the stream cut anywhere
            d = self.dump
            data, must_fail = d[:rng.randrange(len(d))], False
        elif kind == 2:		# bit flips
            b = bytearray(self.dump.encode())
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(b))
                b[i] ^= 1 << rng.randrange(7)
            data, must_fail = b.decode('utf-8', 'replace'), False
        elif kind == 3:		# an extra field
            i = rng.randrange(len(lines))
            lines[i] = lines[i].rstrip('\n') + '\t' + rng.choice([ROW_S0, 'x', '\\N', '']) + '\n'
            data, must_fail = ''.join(lines), True
        elif kind == 4:		# the label field replaced by hostile text
            i = rng.randrange(len(lines))
            text, must_fail = self.bad_label()
            f = lines[i].rstrip('\n').split('\t')
            f[-1] = copy_escape(text)
            lines[i] = '\t'.join(f) + '\n'
            data = ''.join(lines)
        elif kind == 5:		# the label field missing or NULL
            i = rng.randrange(len(lines))
            f = lines[i].rstrip('\n').split('\t')
            lines[i] = '\t'.join(f[:-1] + ([] if rng.random() < 0.5 else ['\\N'])) + '\n'
            data, must_fail = ''.join(lines), True
        elif kind == 6:		# fields swapped
            i = rng.randrange(len(lines))
            f = lines[i].rstrip('\n').split('\t')
            rng.shuffle(f)
            lines[i] = '\t'.join(f) + '\n'
            data, must_fail = ''.join(lines), False
        else:			# bad escapes, end markers, a huge line
            i = rng.randrange(len(lines))
            junk = rng.choice(['\\', '\\x', '\\777', '\\.', '\r', '\\N\\N', 'x' * 300000])
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + junk + lines[i][j:]
            data, must_fail = ''.join(lines), False
        state = self.attempt('restore', self.restorer, None, copy=('COPY ht_r FROM STDIN', data),
                             must_fail=must_fail)
        if state is None:
            self.stats['restores_accepted'] += 1

    # ---- broken policy files -----------------------------------------------

    def policy_input(self):
        rng = self.rng
        good = self.good_policy
        if rng.random() < 0.5:
            kind, data = 'truncated', good[:rng.randrange(len(good))]
        else:
            b = bytearray(good)
            for _ in range(rng.randint(1, 16)):
                i = rng.randrange(len(b))
                b[i] ^= 1 << rng.randrange(8)
            kind, data = 'bit-flipped', bytes(b)
        self.stats['inputs'] += 1
        self.by_point['policy_' + kind] += 1
        if TRACE:
            TRACE.write(repr(('policy', kind, len(data), None)) + '\n')
            TRACE.flush()
        self.swap_policy(data)
        try:
            with self.h.cursor() as cur:
                # the next statement sees the new file; decisions go on
                cur.execute("SELECT labelam.check_access(%s, %s, '{select}'), "
                            "labelam.check_access(%s, %s, '{select}')", (S0, ROW_S0, S0, ROW_TOP))
                allowed, above = cur.fetchone()
                cur.execute("SELECT rejected IS NOT NULL FROM labelam.policy_info()")
                rejected, = cur.fetchone()
        except psycopg2.Error as e:
            self.stats['crashes'] += 1 if self.h.closed else 0
            self.finding('policy %s: the session fails: %s' % (kind, str(e).strip()[:300]))
            self.swap_policy(good)
            raise ConnectionLost()
        if rejected:
            self.stats['refused'] += 1
            self.states[('policy', 'rejected')] += 1
            if (allowed, above) != (True, False):
                self.finding('policy %s rejected, but decisions changed: %s' % (kind, (allowed, above)))
        else:
            self.stats['policy_loaded'] += 1
            self.states[('policy', 'loaded')] += 1
            if kind == 'truncated':
                self.finding('a truncated policy file (%d of %d bytes) was loaded' % (len(data), len(good)))
        self.swap_policy(good)
        with self.h.cursor() as cur:
            cur.execute("SELECT labelam.check_access(%s, %s, '{select}'), "
                        "labelam.check_access(%s, %s, '{select}')", (S0, ROW_S0, S0, ROW_TOP))
            if cur.fetchone() != (True, False):
                self.finding('the good policy back, decisions are wrong')

    def swap_policy(self, data):
        tmp = self.policy + '.new'
        with open(tmp, 'wb') as f:
            f.write(data)
        L.chown(tmp)
        os.rename(tmp, self.policy)

    # ---- the run -------------------------------------------------------

    def run(self):
        self.setup()
        start = time.time()
        n_policy = max(10, INPUTS // 1000)
        n_restore = INPUTS // 10
        i = 0
        while self.stats['inputs'] < INPUTS and len(self.findings) < 50:
            i += 1
            r = self.rng.random()
            try:
                if r < n_policy / INPUTS:
                    self.policy_input()
                elif r < (n_policy + n_restore) / INPUTS:
                    self.restore_input()
                else:
                    self.label_input()
            except ConnectionLost:
                self.reconnect()
            if i % 5000 == 0:
                print('hostile: %d inputs, %.0f s' % (self.stats['inputs'], time.time() - start),
                      flush=True)
        self.final_checks()
        print('hostile: by entry point: %s' % dict(self.by_point))
        print('hostile: refusals by SQLSTATE: %s' %
              dict(sorted(('%s %s' % k, v) for k, v in self.states.items())))
        print('hostile: %.0f s, %s' % (time.time() - start, dict(self.stats)))
        if self.findings:
            print('hostile FAILED: replay with make hostile HOSTILE_INPUTS=%d HOSTILE_SEED=%d' %
                  (INPUTS, SEED))
        print('hostile: inputs=%d refused=%d accepted=%d crashes=%d entries=%d undocumented=%d findings=%d' %
              (self.stats['inputs'], self.stats['refused'], self.stats['accepted'] + self.stats['policy_loaded'],
               self.stats['crashes'], self.stats['entries'], self.stats['undocumented'],
               len(self.findings)), flush=True)
        self.node.stop('fast')
        return not self.findings

    def keep_core(self):
        """A crashed backend's core file (pg_ctl -c), kept beside the log:
        the data directory does not outlive the run."""
        time.sleep(1)
        core = os.path.join(self.node.data, 'core')
        if os.path.exists(core):
            dest = os.path.join(self.node.dir, 'core.%d' % self.stats['crashes'])
            shutil.move(core, dest)
            print('hostile: core file kept as %s' % dest, flush=True)

    def reconnect(self):
        if not self.node.wait_ready(120):
            self.node.start()
        for name in ('h', 'admin', 'restorer', 'checker'):
            conn = getattr(self, name)
            if conn.closed:
                user = 'h' if name == 'h' else 'admin'
                opts = '-c labelam.restore_labels=on' if name == 'restorer' else None
                setattr(self, name, self.node.connect(user=user, options=opts))
            if name != 'checker':
                self.after(getattr(self, name))

    def final_checks(self):
        try:
            t, = self.check_q("SELECT pg_postmaster_start_time()")
        except psycopg2.Error as e:
            self.finding('the server does not answer at the end: %s' % e)
            return
        if t != self.start_time:
            self.finding('the server restarted (postmaster start time %s, was %s)' % (t, self.start_time))
        if self.dictionary() != self.dict_count:
            self.finding('the dictionary changed at the end')
        rows = self.row_counts()
        if rows != self.rows:
            self.finding('rows changed: %s, were %s' % (rows, self.rows))
        with open(self.node.log, errors='replace') as f:
            log = f.read()
        for pat in ('terminated by signal', 'PANIC', 'server process .* exited with exit code'):
            if re.search(pat, log):
                self.finding('the server log says: %s' % re.search('.*(%s).*' % pat, log).group(0)[:300])


class ConnectionLost(Exception):
    pass


def copy_escape(text):
    """text as one field of COPY's text format."""
    return (text.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')
            .replace('\r', '\\r'))


def main():
    h = Hostile()
    try:
        ok = h.run()
    except Exception:
        if getattr(h, 'node', None) is not None:
            h.node.stop('immediate')
        traceback.print_exc()
        ok = False
        print('hostile FAILED: replay with make hostile HOSTILE_INPUTS=%d HOSTILE_SEED=%d' % (INPUTS, SEED))
        print('hostile: inputs=%d refused=%d accepted=%d crashes=%d entries=%d undocumented=%d findings=%d' %
              (h.stats['inputs'], h.stats['refused'], h.stats['accepted'], h.stats['crashes'],
               h.stats['entries'], h.stats['undocumented'], len(h.findings) + 1))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
