# test/soak/soak.py -- "make soak": a randomized workload against a primary
# and a synchronous streaming standby under Debian's MLS policy, a fault
# injector, and a checker that holds the servers to the ledger of commits
# the clients were told succeeded (issue 36; doc/reliability.md).
#
# usage (through scripts/soak.sh, which builds and installs labelam
# privately and sets SOAK_*): soak.py SECONDS SEED
#
# Clients (threads, one connection each) write at their own label: s0, s1,
# s3, s1:c1 and s3:c0,c5 under staff_t, and a relabeler at the top label
# under sysadm_t that moves its rows between labels (new ones included)
# through the declared label column and labelam.update_label.  Each client
# owns its keys, so that the expected state of every key follows from its
# owner's acknowledged transactions alone.  A transaction whose COMMIT got
# no answer (the connection was lost) is uncertain: the checker accepts it
# whole or not at all, never in part.
#
# Faults, one at a time, the kind with the fewest so far next (ties drawn):
#   kill9     kill -9 the primary's postmaster, start it again
#   backend   SIGTERM or SIGKILL to client backends of the primary
#   walfull   fill the primary's WAL file system (a tmpfs the run mounts),
#             hold, free it, restart the server if it stopped
#   datafull  the same with the tablespace's file system
#   promote   kill -9 the primary, promote the standby, rebuild a standby
#   policy    swap a truncated or corrupted policy file in, hold, swap the
#             good one back; sessions must keep working on the old policy
#
# After each fault and its recovery, clients pause and the checker reads:
# every acknowledged row with its label and value (full-clearance session),
# no unacknowledged change in part, each level's rows exactly those at or
# below it, verify_labels, label sets and the label summary, and the standby
# row for row against the primary.
#
# Last line: soak: seconds=N faults=F acknowledged=A lost=L changed=C
# leaked=K findings=V.  A failure prints the seed and the last faults.

import collections
import hashlib
import io
import os
import random
import shutil
import sys
import threading
import time
import traceback

import psycopg2

import soaklib as L

SECONDS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
# SOAK_MIN_PER_KIND=N: a run with fewer faults of some kind fails; it goes
# on for up to a quarter of SECONDS more to reach them
MIN_PER_KIND = int(os.environ.get('SOAK_MIN_PER_KIND', '0'))
# SOAK_SABOTAGE: the checker's own mutation test (doc/reliability.md):
# 'lose' deletes an acknowledged row behind the ledger's back before the
# first check, 'change' rewrites one's value, 'leak' turns enforcement off;
# the run must then fail with lost, changed or leaked above 0
SABOTAGE = os.environ.get('SOAK_SABOTAGE', '')

FAULT_KINDS = ['kill9', 'backend', 'walfull', 'datafull', 'promote', 'policy']
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

log_lock = threading.Lock()
START = time.time()


def say(msg):
    with log_lock:
        print('[%7.1f] %s' % (time.time() - START, msg), flush=True)


class Soak:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.findings = []
        self.faults = collections.Counter()
        self.last_faults = collections.deque(maxlen=12)
        self.acknowledged = 0
        self.uncertain_txns = 0
        self.lost = self.changed = self.leaked = 0
        self.errors = collections.Counter()
        self.outcomes = collections.Counter()
        self.last_signal = 0
        self.checks = 0
        self.gen = 0
        self.primary = None
        self.standby = None
        self.lock = threading.Lock()
        self.pause = threading.Event()
        self.stop = threading.Event()
        self.clients = []
        self.conns = {}
        # a copy of the MLS policy that faults can replace, laid out as
        # /etc/selinux/mls (the table labels come from contexts/ beside it)
        self.policy_dir = os.path.join(L.WORK, 'selinux', 'mls')
        self.policy = os.path.join(self.policy_dir, 'policy', os.path.basename(L.MLS_POLICY))
        self.row_label = {}	# client level -> label its rows get

    def finding(self, what):
        with self.lock:
            self.findings.append(what)
        say('FINDING: ' + what)

    # ---- clusters ----------------------------------------------------

    def new_node(self):
        """A node with its own WAL and tablespace file systems."""
        self.gen += 1
        node = L.Node('n%d' % self.gen)
        node.wal = L.TmpfsMount(os.path.join(node.dir, 'walfs'), 192)
        node.ts = L.TmpfsMount(os.path.join(node.dir, 'tsfs'), 64)
        node.mounts = [node.wal, node.ts]
        return node

    def server_conf(self):
        return ["labelam.provider = 'sepol'",
                "labelam.policy_file = '%s'" % self.policy,
                "labelam.default_client_label = '%ss0'" % L.SUBJECT,
                "labelam.object_checks = off",
                "wal_level = replica", "max_wal_senders = 6", "max_replication_slots = 6",
                "max_wal_size = 16MB", "min_wal_size = 4MB",
                "max_slot_wal_keep_size = 64MB", "wal_keep_size = 0",
                "fsync = off", "hot_standby = on", "wal_receiver_status_interval = 1s",
                # a standby whose primary restarted streams again at once
                "wal_retrieve_retry_interval = '200ms'",
                "log_line_prefix = '%m [%p] %u '",
                "max_connections = 40", "restart_after_crash = on"]

    def setup(self):
        os.makedirs(os.path.dirname(self.policy), exist_ok=True)
        shutil.copyfile(L.MLS_POLICY, self.policy)
        shutil.copytree(os.path.join(os.path.dirname(os.path.dirname(L.MLS_POLICY)), 'contexts'),
                        os.path.join(self.policy_dir, 'contexts'))
        with open(L.MLS_POLICY, 'rb') as f:
            self.good_policy = f.read()
        L.chown(self.policy_dir)
        p = self.new_node()
        # 1 MB WAL segments: few recycled ones, so that a full WAL file
        # system is met within a fault's hold
        p.initdb(self.server_conf(), waldir=os.path.join(p.wal.path, 'pg_wal'),
                 extra=['--wal-segsize=1'])
        os.makedirs(os.path.join(p.ts.path, 'tbs'))
        L.chown(p.ts.path)
        p.start()
        self.primary = p
        c = p.connect()
        cur = c.cursor()
        cur.execute("CREATE EXTENSION labelam")
        cur.execute("CREATE ROLE admin SUPERUSER LOGIN")
        cur.execute("INSERT INTO labelam.role_label VALUES ('admin', %s)", (L.TOP,))
        for i, lvl in enumerate(CLIENT_LEVELS):
            cur.execute("CREATE ROLE c%d LOGIN" % i)
            cur.execute("INSERT INTO labelam.role_label VALUES (%s, %s)",
                        ('c%d' % i, L.SUBJECT + lvl))
        cur.execute("CREATE ROLE relabeler LOGIN")
        cur.execute("INSERT INTO labelam.role_label VALUES ('relabeler', %s)", (L.TOP,))
        cur.execute("CREATE TABLESPACE soak_ts LOCATION %s", (os.path.join(p.ts.path, 'tbs'),))
        cur.execute("""
            CREATE TABLE items (k text PRIMARY KEY USING INDEX TABLESPACE soak_ts, v text,
                                lbl labelam.security_label)
                USING labelheap TABLESPACE soak_ts;
            CREATE TABLE plain (k text PRIMARY KEY USING INDEX TABLESPACE soak_ts, v text)
                USING labelheap TABLESPACE soak_ts;
            CREATE INDEX plain_labels ON plain USING labelsummary (k) TABLESPACE soak_ts;
            GRANT ALL ON items, plain TO PUBLIC;""")
        # the label each level's rows get, as the policy computes it
        for lvl in CLIENT_LEVELS + [L.TOP_LEVEL]:
            subj = (L.SUBJECT + lvl) if lvl != L.TOP_LEVEL else L.TOP
            cur.execute("SELECT labelam.compute_create(%s, %s)", (subj, L.ROW + 's0'))
            self.row_label[lvl] = cur.fetchone()[0]
        c.close()
        say('row labels: %s' % self.row_label)
        self.standby = self.build_standby(self.primary)

    def build_standby(self, primary):
        s = self.new_node()
        slot = 'slot_n%d' % self.gen
        L.run([L.PGBIN + '/pg_basebackup', '-U', 'postgres', '-h', primary.sock, '-p', str(primary.port),
               '-D', s.data, '-R', '-X', 'stream', '--no-sync', '-c', 'fast', '-C', '-S', slot,
               '--waldir=' + os.path.join(s.wal.path, 'pg_wal'),
               '--tablespace-mapping=%s=%s' % (os.path.join(primary.ts.path, 'tbs'),
                                              os.path.join(s.ts.path, 'tbs'))])
        s.append_conf(s.conf_lines())
        s.start()
        if not s.wait_ready():
            raise RuntimeError('standby %s not ready: %s' % (s.name, s.log_tail()))
        self.set_sync(primary, True)
        return s

    def set_sync(self, node, on):
        sql = ("ALTER SYSTEM SET synchronous_standby_names = '*'" if on
               else "ALTER SYSTEM RESET synchronous_standby_names")
        node.query(sql)
        node.query("SELECT pg_reload_conf()")

    def drop_node(self, node):
        node.kill9()
        for _ in range(100):
            if not node.running():
                break
            time.sleep(0.1)
        for m in node.mounts:
            m.umount()
        shutil.rmtree(node.dir, ignore_errors=True)

    def ensure_primary(self):
        """Starts the primary if a fault left it stopped; True once it
        answers."""
        p = self.primary
        if not p.running():
            p.start()
        if not p.wait_ready(180):
            return False
        return True

    # ---- faults ------------------------------------------------------

    def next_fault(self):
        least = min(self.faults[k] for k in FAULT_KINDS)
        return self.rng.choice([k for k in FAULT_KINDS if self.faults[k] == least])

    def inject(self, kind):
        rng = self.rng
        detail = ''
        if kind == 'kill9':
            pid = self.primary.kill9()
            detail = 'postmaster %s' % pid
            self.wait_gone(pid)
            self.primary.start()
        elif kind == 'backend':
            pids = self.primary.backend_pids()
            pids = [p for p in pids]
            victims = rng.sample(pids, min(len(pids), rng.randint(1, 2))) if pids else []
            sig = self.last_signal = rng.choice([15, 15, 9])
            for pid in victims:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            detail = 'signal %d to %s' % (sig, victims)
        elif kind in ('walfull', 'datafull'):
            m = self.primary.wal if kind == 'walfull' else self.primary.ts
            panics0 = self.primary.log_count('PANIC:')
            n = m.fill()
            hold = rng.uniform(0.5, 1.0)
            end = time.time() + hold
            if kind == 'walfull':
                # new WAL segments, past the recycled ones
                for _ in range(30):
                    if time.time() > end:
                        break
                    try:
                        self.q(self.primary, "SELECT pg_switch_wal()")
                    except psycopg2.Error:
                        break
                    time.sleep(0.02)
            time.sleep(max(0, end - time.time()))
            m.free()
            panics = self.primary.log_count('PANIC:') - panics0
            detail = '%d MB, %.1f s, %d PANIC' % (n >> 20, hold, panics)
            self.outcomes[kind + (' with a crash' if panics else ' without a crash')] += 1
        elif kind == 'promote':
            old = self.primary
            pid = old.kill9()
            self.wait_gone(pid)
            L.run([L.PGBIN + '/pg_ctl', '-D', self.standby.data, '-w', '-t', '120', 'promote'])
            self.primary, self.standby = self.standby, None
            # the old primary's synchronous_standby_names came along in
            # postgresql.auto.conf: without a standby, commits would wait
            self.set_sync(self.primary, False)
            detail = '%s -> %s' % (old.name, self.primary.name)
            self.drop_node(old)
        elif kind == 'policy':
            broken = self.broken_policy(rng)
            tmp = self.policy + '.new'
            with open(tmp, 'wb') as f:
                f.write(broken[1])
            L.chown(tmp)
            os.rename(tmp, self.policy)
            hold = rng.uniform(0.3, 1.0)
            time.sleep(hold)
            # sessions keep connecting and deciding with the old policy
            try:
                conn = self.primary.connect(user='c0')
                with conn.cursor() as cur:
                    # a decision first: the file is looked at then
                    cur.execute("SELECT count(*) FROM items")
                    cur.execute("SELECT rejected IS NOT NULL FROM labelam.policy_info()")
                    rej = cur.fetchone()[0]
                conn.close()
                if not rej:
                    self.finding('a %s policy file was not rejected' % broken[0])
            except psycopg2.Error as e:
                self.finding('no session with a %s policy file in place: %s' % (broken[0], e))
            with open(tmp, 'wb') as f:
                f.write(self.good_policy)
            L.chown(tmp)
            os.rename(tmp, self.policy)
            detail = '%s, %.1f s' % (broken[0], hold)
        self.faults[kind] += 1
        self.last_faults.append('%.1f %s %s' % (time.time() - START, kind, detail))
        say('fault %s %s' % (kind, detail))

    def broken_policy(self, rng):
        good = self.good_policy
        if rng.random() < 0.5:
            return ('truncated', good[:rng.randrange(0, len(good) - 1)])
        b = bytearray(good)
        # the magic number and the version: corrupt for certain
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(0, 8)
            b[i] ^= 1 << rng.randrange(8)
        return ('corrupted header', bytes(b))

    def wait_gone(self, pid):
        for _ in range(300):
            try:
                os.kill(pid, 0)
            except (ProcessLookupError, TypeError):
                return
            time.sleep(0.05)

    def recover(self):
        if not self.ensure_primary():
            self.finding('primary %s does not come back: %s' %
                         (self.primary.name, self.primary.log_tail()))
            return False
        if self.standby is None:
            self.standby = self.build_standby(self.primary)
        elif not self.standby.running():
            self.finding('standby %s stopped: %s' % (self.standby.name, self.standby.log_tail()))
            self.standby.start()
        return True

    # ---- the check ---------------------------------------------------

    def pause_clients(self):
        self.pause.set()
        end = time.time() + 120
        while time.time() < end:
            if all(c.paused.is_set() or not c.thread.is_alive() for c in self.clients):
                return
            time.sleep(0.02)
        self.finding('clients do not pause: %s' %
                     [c.name for c in self.clients if not c.paused.is_set()])

    def resume_clients(self):
        self.pause.clear()

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

    def run(self):
        self.setup()
        for i, lvl in enumerate(CLIENT_LEVELS):
            self.clients.append(Client(self, 'c%d' % i, lvl, self.row_label[lvl], SEED * 100 + i))
        self.clients.append(Client(self, 'relabeler', L.TOP_LEVEL, self.row_label[L.TOP_LEVEL],
                                   SEED * 100 + 99, relabel=True))
        maint = threading.Thread(target=self.maintenance, daemon=True)
        maint.start()
        for c in self.clients:
            c.thread.start()
        end = START + SECONDS
        while time.time() < end or (MIN_PER_KIND and min(self.faults[k] for k in FAULT_KINDS) < MIN_PER_KIND
                                    and time.time() < end + SECONDS / 4):
            time.sleep(self.rng.uniform(0.05, 0.4))
            kind = self.next_fault()
            try:
                self.inject(kind)
                ok = self.recover()
            except Exception as e:
                self.finding('fault %s: %s' % (kind, e))
                traceback.print_exc()
                ok = self.recover()
            t0 = time.time()
            self.pause_clients()
            t1 = time.time()
            if ok:
                # a full check after every recovery (and a full disk)
                self.check(kind, full=kind not in ('policy', 'backend') or self.last_signal == 9)
            self.resume_clients()
            say('check after %s: pause %.1f s, check %.1f s' % (kind, t1 - t0, time.time() - t1))
            if len(self.findings) > 20:
                break
        self.stop.set()
        self.resume_clients()
        for c in self.clients:
            c.thread.join(60)
        self.pause_clients()
        if self.recover():
            self.check('the end')
        for c in self.clients:
            self.acknowledged += c.acknowledged
            self.uncertain_txns += c.uncertain_count
            self.errors.update(c.errors)
        self.finish()

    def maintenance(self):
        """VACUUM and CHECKPOINT now and then, at the top label."""
        rng = random.Random(SEED * 100 + 77)
        conn = None
        while not self.stop.is_set():
            time.sleep(rng.uniform(1.0, 3.0))
            if self.pause.is_set():
                continue
            sql = rng.choice(['VACUUM items', 'VACUUM plain', 'CHECKPOINT', 'VACUUM (ANALYZE) plain'])
            try:
                if conn is None or conn.closed:
                    conn = self.primary.connect(user='admin', timeout=3)
                with conn.cursor() as cur:
                    cur.execute(sql)
            except psycopg2.Error as e:
                st = L.errcode(e)
                if st and st not in FAULT_STATES:
                    self.finding('%s: %s %s' % (sql, st, e))
                if conn is not None and not conn.closed:
                    conn.close()
                conn = None

    def finish(self):
        for n in (self.primary, self.standby):
            if n is not None:
                n.stop('immediate')
                for m in n.mounts:
                    m.umount()
        say('faults by kind: %s' % dict(self.faults))
        say('checks: %d, uncertain commits: %d, client errors by SQLSTATE: %s' %
            (self.checks, self.uncertain_txns, dict(self.errors)))
        say('disk faults: %s' % dict(self.outcomes))
        fail = bool(self.findings) or (MIN_PER_KIND and min(self.faults[k] for k in FAULT_KINDS) < MIN_PER_KIND)
        if fail:
            print('soak FAILED: replay with make soak SOAK_SECONDS=%d SOAK_SEED=%d' % (SECONDS, SEED))
            print('last faults:')
            for f in self.last_faults:
                print('  ' + f)
            for f in self.findings[:20]:
                print('  finding: ' + f)
        print('soak: seconds=%d faults=%d acknowledged=%d lost=%d changed=%d leaked=%d findings=%d' %
              (int(time.time() - START), sum(self.faults.values()), self.acknowledged,
               self.lost, self.changed, self.leaked, len(self.findings)), flush=True)
        return not fail


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
            except Exception as e:
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


def main():
    soak = Soak()
    try:
        soak.run()
    except Exception:
        traceback.print_exc()
        soak.finding('the run stopped: %s' % sys.exc_info()[1])
        soak.stop.set()
        try:
            soak.finish()
        except Exception:
            traceback.print_exc()
    ok = not soak.findings and not (MIN_PER_KIND and min(soak.faults[k] for k in FAULT_KINDS) < MIN_PER_KIND)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
