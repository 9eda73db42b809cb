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
#
# Here: the servers, the faults and the run; the clients and their ledgers
# are client.py's, the check checker.py's, clusters and labels soaklib.py's.

import collections
import os
import random
import re
import shutil
import sys
import threading
import time
import traceback

import psycopg2

import soaklib as L
from checker import Checker
from client import CLIENT_LEVELS, FAULT_STATES, Client
from soaklib import START, say

SECONDS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
# SOAK_MIN_PER_KIND=N: a run with fewer faults of some kind fails; it goes
# on for up to a quarter of SECONDS more (a minute at least) to reach them
MIN_PER_KIND = int(os.environ.get('SOAK_MIN_PER_KIND', '0'))

FAULT_KINDS = ['kill9', 'backend', 'walfull', 'datafull', 'promote', 'policy']
class Soak(Checker):
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
        # its log outlives it: finish() reads every node's for crashes
        os.makedirs(os.path.join(L.WORK, 'logs'), exist_ok=True)
        if os.path.exists(node.log):
            shutil.copyfile(node.log, os.path.join(L.WORK, 'logs', node.name + '.log'))
        shutil.rmtree(node.dir, ignore_errors=True)

    def ensure_primary(self, timeout=180):
        """Starts the primary whenever it is found stopped (a fault may stop
        it a moment after it seemed up: a startup process that meets a full
        WAL disk ends the postmaster); True once it answers."""
        p = self.primary
        end = time.time() + timeout
        while time.time() < end:
            if not p.running():
                try:
                    p.start()
                except RuntimeError as e:
                    say('primary %s does not start yet: %s' % (p.name, str(e)[:200]))
                    continue
            try:
                p.query('SELECT 1')
                return True
            except psycopg2.Error:
                time.sleep(0.2)
        return False

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

    def crashes_in_logs(self):
        """Every server process that died other than by the faults is a
        finding: a signal other than SIGKILL (the faults') or SIGABRT (a
        PANIC), a PANIC other than a full disk's, a failed assertion."""
        logs = [os.path.join(L.WORK, 'logs', f) for f in os.listdir(os.path.join(L.WORK, 'logs'))
                ] if os.path.isdir(os.path.join(L.WORK, 'logs')) else []
        logs += [n.log for n in (self.primary, self.standby) if n is not None]
        for path in logs:
            with open(path, errors='replace') as f:
                for line in f:
                    m = re.search(r'terminated by signal (\d+)', line)
                    if (m and m.group(1) not in ('6', '9')) or 'TRAP:' in line or \
                            ('PANIC:' in line and 'No space left on device' not in line):
                        self.finding('%s: %s' % (os.path.basename(path), line.strip()[:300]))

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
        end = time.time() + SECONDS		# the faults phase: set-up not counted
        while time.time() < end or (MIN_PER_KIND and min(self.faults[k] for k in FAULT_KINDS) < MIN_PER_KIND
                                    and time.time() < end + max(SECONDS / 4, 60)):
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
        self.crashes_in_logs()
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
