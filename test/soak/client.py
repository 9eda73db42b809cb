# test/soak/client.py -- the soak's clients (soak.py): one thread and one
# connection each, writing at the client's own label to its own keys, and
# the ledger of the transactions whose COMMIT it saw succeed (expected) or
# got no answer for (uncertain).

import collections
import hashlib
import io
import random
import threading
import time
import traceback

import psycopg2

import soaklib as L
from soaklib import say

CLIENT_LEVELS = ['s0', 's1', 's3', 's1:c1', 's3:c0,c5']
TABLES = ['items', 'plain']
MAX_KEYS = 120			# keys a client keeps; past it, it deletes
MAX_MOVED = 1500		# rows the relabeler moves down (it cannot delete them)

# SQLSTATEs a client may meet while faults happen: the server shutting
# down, crashed or restarting, a terminated backend, a full disk, a
# promoted standby, a read-only server during the switch.  Any other error
# is a finding.
FAULT_STATES = {'57P01', '57P02', '57P03', '53100', '25006', '08006', '08003',
                '08000', '08001', '53300', '58030', 'XX000'}
# XX000 only with one of these messages (a failed write or a lost WAL file
# during a crash are reported as internal errors by PostgreSQL itself)
XX000_OK = ('No space left on device', 'could not write', 'could not extend',
            'could not open file', 'could not access status of transaction')



def value(rng):
    """A value: mostly short, one in eight out of line (TOAST), random
    letters so that compression does not keep it inline."""
    if rng.random() < 0.125:
        n = rng.randint(3000, 12000)
    else:
        n = rng.randint(5, 60)
    return ''.join(rng.choice('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')
                   for _ in range(n))


def digest(v):
    return (hashlib.md5(v.encode()).hexdigest(), len(v))


class Client:
    def __init__(self, soak, role, level, label, seed, relabel=False):
        self.soak = soak
        self.name = role
        self.role = role
        self.level = level
        self.label = label
        self.rng = random.Random(seed)
        self.relabel = relabel
        self.expected = {}		# (table, key) -> (label, md5, length)
        self.uncertain = None	# {(table, key): state or None} of a COMMIT without answer
        self.acknowledged = 0
        self.uncertain_count = 0
        self.errors = collections.Counter()
        self.n = 0
        self.conn = None
        self.paused = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def new_key(self):
        self.n += 1
        return '%s-%d' % (self.name, self.n)

    def loop(self):
        soak = self.soak
        while not soak.stop.is_set():
            if soak.pause.is_set() or self.uncertain is not None:
                self.paused.set()
                while (soak.pause.is_set() or self.uncertain is not None) and not soak.stop.is_set():
                    time.sleep(0.02)
                self.paused.clear()
                continue
            if self.conn is None or self.conn.closed:
                try:
                    self.conn = soak.primary.connect(user=self.role, autocommit=False, timeout=2)
                except psycopg2.Error:
                    self.conn = None
                    time.sleep(0.1)
                    continue
            try:
                self.transaction()
                time.sleep(self.rng.uniform(0, 0.03))
            except Exception:
                self.soak.finding('client %s: %s' % (self.name, traceback.format_exc()))
                time.sleep(0.5)
        self.paused.set()

    def transaction(self):
        rng = self.rng
        effects = {}		# key -> new state or None (deleted)
        state = dict(self.expected)
        conn = self.conn
        cur = conn.cursor()
        # the keys this client may still write: those at its own label
        # (the relabeler's rows, once moved down, are beyond its writes)
        mine = [k for k, v in state.items() if v[0] == self.label]
        moved = len(state) - len(mine)

        def put(table, key, v, label=None):
            effects[(table, key)] = (label or self.label,) + digest(v)
            state[(table, key)] = effects[(table, key)]

        try:
            ops = rng.choices(['insert', 'copy', 'update', 'delete', 'upsert', 'savepoint', 'relabel'],
                              weights=[4, 2, 3, 3 if len(mine) < MAX_KEYS else 12, 2, 1,
                                       4 if self.relabel and moved < MAX_MOVED else 0])[0]
            if ops == 'insert':
                for _ in range(rng.randint(1, 3)):
                    t = rng.choice(TABLES)
                    k, v = self.new_key(), value(rng)
                    cur.execute('INSERT INTO %s (k, v) VALUES (%%s, %%s)' % t, (k, v))
                    put(t, k, v)
            elif ops == 'copy':
                t = rng.choice(TABLES)
                buf = io.StringIO()
                rows = []
                for _ in range(rng.randint(2, 10)):
                    k, v = self.new_key(), value(rng)
                    if t == 'items':
                        # the label column: the row's own label, or \N for "the label it gets"
                        buf.write('%s\t%s\t%s\n' % (k, v, self.label if rng.random() < 0.5 else '\\N'))
                    else:
                        buf.write('%s\t%s\n' % (k, v))
                    rows.append((k, v))
                buf.seek(0)
                cur.copy_expert('COPY %s (k, v%s) FROM STDIN' % (t, ', lbl' if t == 'items' else ''), buf)
                for k, v in rows:
                    put(t, k, v)
            elif ops == 'update' and mine:
                for key in rng.sample(mine, min(len(mine), rng.randint(1, 3))):
                    v = value(rng)
                    cur.execute('UPDATE %s SET v = %%s WHERE k = %%s' % key[0], (v, key[1]))
                    put(key[0], key[1], v, state[key][0])
            elif ops == 'delete' and mine:
                for key in rng.sample(mine, min(len(mine), rng.randint(1, 4))):
                    cur.execute('DELETE FROM %s WHERE k = %%s' % key[0], (key[1],))
                    effects[key] = None
                    state.pop(key, None)
            elif ops == 'upsert':
                t = rng.choice(TABLES)
                same = [k for k in mine if k[0] == t]
                if same and rng.random() < 0.6:
                    key = rng.choice(same)
                    k, lbl = key[1], state[key][0]
                else:
                    k, lbl = self.new_key(), self.label
                v = value(rng)
                cur.execute('INSERT INTO %s (k, v) VALUES (%%s, %%s) '
                            'ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v' % t, (k, v))
                put(t, k, v, lbl)
            elif ops == 'savepoint':
                t = rng.choice(TABLES)
                k, v = self.new_key(), value(rng)
                cur.execute('INSERT INTO %s (k, v) VALUES (%%s, %%s)' % t, (k, v))
                put(t, k, v)
                cur.execute('SAVEPOINT s')
                kept = dict(effects), dict(state)
                k2, v2 = self.new_key(), value(rng)
                cur.execute('INSERT INTO %s (k, v) VALUES (%%s, %%s)' % t, (k2, v2))
                if mine:
                    key = rng.choice(mine)
                    cur.execute('DELETE FROM %s WHERE k = %%s' % key[0], (key[1],))
                cur.execute('ROLLBACK TO SAVEPOINT s')
                effects, state = kept
                k3, v3 = self.new_key(), value(rng)
                cur.execute('INSERT INTO %s (k, v) VALUES (%%s, %%s)' % t, (k3, v3))
                put(t, k3, v3)
            elif ops == 'relabel' and mine:
                key = rng.choice(mine)
                target = self.relabel_target()
                if key[0] == 'items':
                    cur.execute('UPDATE items SET lbl = %s WHERE k = %s RETURNING md5(v), length(v)',
                                (target, key[1]))
                else:
                    cur.execute("SELECT set_config('labelam.update_label', %s, true)", (target,))
                    cur.execute('UPDATE plain SET v = v WHERE k = %s RETURNING md5(v), length(v)',
                                (key[1],))
                r = cur.fetchall()
                if len(r) != 1 or tuple(r[0]) != state[key][1:]:
                    self.soak.finding('relabel of %s read %s, acknowledged %s' % (key, r, state[key]))
                effects[key] = (target,) + state[key][1:]
                state[key] = effects[key]
            else:
                conn.rollback()
                return
        except psycopg2.Error as e:
            self.failed(e)
            return
        try:
            conn.commit()
        except psycopg2.Error as e:
            if conn.closed:
                self.uncertain = effects
                self.uncertain_count += 1
            self.failed(e)
            return
        self.expected = state
        self.acknowledged += 1

    def relabel_target(self):
        """A label at s0-s3, with a category one time in two, drawn from a
        wide space so that new labels are interned as the run goes."""
        rng = self.rng
        lvl = 's%d' % rng.randint(0, 3)
        if rng.random() < 0.5:
            lvl += ':c%d' % rng.randint(0, 1023)
        return L.ROW + lvl

    def failed(self, e):
        st = L.errcode(e)
        self.errors[st or 'connection'] += 1
        msg = str(e).strip().split('\n')[0]
        if self.errors[st or 'connection'] == 1:
            say('client %s: first %s: %s' % (self.name, st or 'connection lost', msg))
        if st and st not in FAULT_STATES or (st == 'XX000' and not any(s in str(e) for s in XX000_OK)):
            self.soak.finding('client %s: unexpected error %s: %s' % (self.name, st, msg))
        try:
            if not self.conn.closed:
                self.conn.rollback()
        except psycopg2.Error:
            pass
        if self.conn.closed:
            self.conn = None
        else:
            # a connection that an error left open may be in any state: a new one
            try:
                self.conn.close()
            except psycopg2.Error:
                pass
            self.conn = None

    def resolve(self, seen, soak):
        """Settles an uncertain transaction against what the servers hold:
        all of it or none of it, else a finding."""
        eff = self.uncertain
        if eff is None:
            return
        post = all(seen.get(k) == v for k, v in eff.items())
        pre = all(seen.get(k) == self.expected.get(k) for k in eff)
        if post and not pre:
            for k, v in eff.items():
                if v is None:
                    self.expected.pop(k, None)
                else:
                    self.expected[k] = v
        elif not pre:
            soak.changed += 1
            soak.finding('client %s: an unacknowledged transaction survives in part: %s' %
                         (self.name, {k: (seen.get(k), v) for k, v in eff.items()}))
            for k in eff:		# go on from what is there
                if seen.get(k) is None:
                    self.expected.pop(k, None)
                else:
                    self.expected[k] = seen[k]
        self.uncertain = None
