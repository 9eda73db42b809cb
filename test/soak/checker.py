# test/soak/checker.py -- the soak's checker (soak.py): after each fault
# and its recovery, the servers against the clients' ledgers.  A mixin of
# class Soak, whose primary, standby, clients and counters it reads.

import os
import time

import psycopg2

import soaklib as L
from client import CLIENT_LEVELS
from soaklib import say

# SOAK_SABOTAGE: the checker's own mutation test (doc/reliability.md):
# 'lose' deletes an acknowledged row behind the ledger's back before the
# first check, 'change' rewrites one's value, 'leak' turns enforcement off;
# the run must then fail with lost, changed or leaked above 0
SABOTAGE = os.environ.get('SOAK_SABOTAGE', '')


class Checker:
    def q(self, node, sql, user='admin', args=None):
        """The checker's query: one connection a node and role, kept (a
        new backend reads the policy anew, which takes a while)."""
        key = (node.name, user)
        for attempt in (1, 2):
            conn = self.conns.get(key)
            if conn is None or conn.closed:
                conn = self.conns[key] = node.connect(user=user)
            try:
                with conn.cursor() as cur:
                    cur.execute(sql, args)
                    return cur.fetchall() if cur.description else None
            except psycopg2.Error:
                if not conn.closed and attempt == 1:
                    conn.close()
                if attempt == 2 or not conn.closed:
                    raise

    def read_all(self, node):
        """{(table, key): (label, md5(v), length(v))} read by the top
        label."""
        out = {}
        for t, k, lbl, md5, ln in self.q(node,
                "SELECT 'items', k, lbl, md5(v), length(v) FROM items "
                "UNION ALL SELECT 'plain', k, p.security_label, md5(v), length(v) FROM plain p"):
            out[(t, k)] = (lbl, md5, ln)
        return out

    def sabotage(self, p):
        """SOAK_SABOTAGE: what the checker must catch."""
        global SABOTAGE
        if SABOTAGE in ('lose', 'change'):
            key = next((k for c in self.clients for k in sorted(c.expected)), None)
            if key is None:
                return
            sql = ('DELETE FROM %s WHERE k = %%s' if SABOTAGE == 'lose'
                   else "UPDATE %s SET v = v || 'x' WHERE k = %%s") % key[0]
            self.set_enforcing(p, False)
            self.q(p, sql, args=(key[1],))
            self.set_enforcing(p, True)
            say('sabotage: %s %s' % (SABOTAGE, key))
            SABOTAGE = ''
        elif SABOTAGE == 'leak':
            self.set_enforcing(p, False)
            say('sabotage: enforcement off')
            SABOTAGE = ''

    def set_enforcing(self, p, on):
        self.q(p, 'ALTER SYSTEM %s labelam.enforcing%s' % (('RESET', '') if on else ('SET', ' = off')))
        self.q(p, 'SELECT pg_reload_conf()')
        time.sleep(0.5)
        for conn in self.conns.values():	# the checker's sessions see it now
            if not conn.closed:
                conn.close()

    def check(self, why, full=True):
        """The check; full=False (after a fault without a recovery: a
        backend terminated, a policy file swapped in and out) reads one
        level's session of the five in turn and leaves the standby for the
        next full check: every session reloads the policy after a swap,
        and the run affords that only where a recovery would reconnect
        them anyway."""
        self.checks += 1
        p = self.primary
        if SABOTAGE:
            self.sabotage(p)
        try:
            seen = self.read_all(p)
        except psycopg2.Error as e:
            # a full WAL disk can make the server PANIC a moment after the
            # fault, once it seemed ready (a process that was writing when
            # the disk filled): its crash restart is the fault's, and
            # crashes_in_logs() judges every crash at the end
            say('check after %s: the primary does not answer (%s); once more when it does' %
                (why, str(e).strip().split('\n')[0]))
            if not self.ensure_primary():
                self.finding('check after %s: the primary does not come back: %s' % (why, p.log_tail()))
                return
            try:
                seen = self.read_all(p)
            except psycopg2.Error as e:
                self.finding('check after %s: the top label cannot read: %s' % (why, e))
                return
        expected = {}
        for c in self.clients:
            c.resolve(seen, self)
            expected.update(c.expected)
        owner = {c.name: c for c in self.clients}
        for key, val in seen.items():
            if key not in expected:
                self.changed += 1
                self.finding('after %s: %s is present but no acknowledged transaction left it' %
                             (why, key))
        for key, val in expected.items():
            got = seen.get(key)
            if got is None:
                self.lost += 1
                self.finding('after %s: acknowledged row %s is lost' % (why, key))
            elif got != val:
                self.changed += 1
                self.finding('after %s: row %s is %s, acknowledged %s' % (why, key, got, val))
        # each loss or change is counted once: the ledger goes on from what
        # the servers hold
        for key in set(seen) | set(expected):
            if seen.get(key) != expected.get(key):
                c = owner.get(key[1].rsplit('-', 1)[0])
                if c is not None:
                    if key in seen:
                        c.expected[key] = seen[key]
                    else:
                        c.expected.pop(key, None)
                expected[key] = seen.get(key)
                if expected[key] is None:
                    del expected[key]
        # each level reads exactly the ledger's rows at or below it
        for i, lvl in enumerate(CLIENT_LEVELS):
            if not full and i != self.checks % len(CLIENT_LEVELS):
                continue
            want = {k for k, v in expected.items() if L.dominates(lvl, L.level_of(v[0]))}
            try:
                got = set()
                for t, k in self.q(p, "SELECT 'items', k FROM items UNION ALL "
                                   "SELECT 'plain', k FROM plain", user='c%d' % i):
                    got.add((t, k))
            except psycopg2.Error as e:
                self.finding('after %s: level %s cannot read: %s' % (why, lvl, e))
                continue
            extra = got - want
            if extra:
                self.leaked += len(extra)
                self.finding('after %s: level %s reads %d rows above it, e.g. %s' %
                             (why, lvl, len(extra), sorted(extra)[:3]))
            if want - got:
                self.finding('after %s: level %s misses %d of its rows, e.g. %s' %
                             (why, lvl, len(want - got), sorted(want - got)[:3]))
        # verify_labels, label sets, the label summary
        for sql, what in [
            ("SELECT count(*) FROM labelam.verify_labels('items')", 'verify_labels(items)'),
            ("SELECT count(*) FROM labelam.verify_labels('plain')", 'verify_labels(plain)'),
            ("SELECT count(*) FROM (SELECT DISTINCT t::regclass, labelam.tuple_secid(t::regclass, ctid) s "
             "FROM (SELECT 'items' t, ctid FROM items UNION ALL SELECT 'plain', ctid FROM plain) r) x "
             "WHERE NOT EXISTS (SELECT 1 FROM labelam.table_labels l WHERE l.relid = x.t AND l.secid = x.s)",
             'labels missing from label sets'),
            ("SELECT count(*) FROM plain p WHERE NOT EXISTS (SELECT 1 FROM "
             "labelam.label_summary('plain_labels') s WHERE (p.ctid::text::point)[0] "
             "BETWEEN s.first_block AND s.last_block AND (s.secids IS NULL OR "
             "labelam.tuple_secid('plain', p.ctid) = ANY (s.secids)))",
             'rows missing from the label summary')]:
            try:
                n = self.q(p, sql)[0][0]
            except psycopg2.Error as e:
                self.finding('after %s: %s fails: %s' % (why, what, e))
                continue
            if n:
                self.finding('after %s: %s: %d' % (why, what, n))
        # the standby, row for row
        s = self.standby
        if s is not None and full:
            if not self.catch_up(p, s):
                self.finding('after %s: standby %s does not catch up' % (why, s.name))
            else:
                try:
                    other = self.read_all(s)
                    if other != seen:
                        diff = set(other.items()) ^ set(seen.items())
                        self.finding('after %s: standby differs in %d rows, e.g. %s' %
                                     (why, len(diff), sorted(diff)[:2]))
                except psycopg2.Error as e:
                    self.finding('after %s: standby cannot be read: %s' % (why, e))

    def catch_up(self, p, s):
        lsn = self.q(p, "SELECT pg_current_wal_lsn()")[0][0]
        end = time.time() + 60
        while time.time() < end:
            try:
                if self.q(s, "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", args=(lsn,))[0][0]:
                    return True
            except psycopg2.Error:
                pass
            time.sleep(0.1)
        return False

    # ---- the run -----------------------------------------------------
