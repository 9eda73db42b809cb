# test/soak/soaklib.py -- what the soak (soak.py) and the hostile-input run
# (hostile.py) share: throwaway clusters of the private installation that
# scripts/soak.sh made (scripts/pgenv.sh's labelam_setup), run as its
# unprivileged OS user, under Debian's MLS policy through the sepol
# provider, and the labels of the sessions that use them.
#
# The driver runs as root (it mounts the small file systems the disk faults
# fill); the servers run as $SOAK_RUN_USER; clients connect over Unix
# sockets with trust authentication.

import os
import signal
import subprocess
import threading
import time

import psycopg2
import psycopg2.extensions

PGBIN = os.environ.get('SOAK_PGBIN', '')
WORK = os.environ.get('SOAK_WORK', '')
RUN_USER = os.environ.get('SOAK_RUN_USER', '')
MLS_POLICY = os.environ.get('SOAK_MLS_POLICY', '')

START = time.time()
_log_lock = threading.Lock()


def say(msg):
    """A line of the run's log, with the seconds since it started."""
    with _log_lock:
        print('[%7.1f] %s' % (time.time() - START, msg), flush=True)


# Session labels (labelam.role_label) and the row labels the MLS policy's
# type_transition gives their rows.  TOP reads everything and may relabel.
SUBJECT = 'staff_u:staff_r:staff_t:'
ROW = 'staff_u:object_r:sepgsql_table_t:'
TOP_LEVEL = 's15:c0.c1023'
TOP = 'staff_u:sysadm_r:sysadm_t:' + TOP_LEVEL


def parse_level(level):
    """(sensitivity, frozenset of categories) of an MLS level such as
    's3:c0,c5' or 's15:c0.c1023'."""
    sens, _, cats = level.partition(':')
    out = set()
    for part in filter(None, cats.split(',')):
        if '.' in part:
            lo, hi = part.split('.')
            out.update(range(int(lo[1:]), int(hi[1:]) + 1))
        else:
            out.add(int(part[1:]))
    return int(sens[1:]), frozenset(out)


def dominates(a, b):
    """Does level a dominate level b (MLS read: a reads rows at b)?"""
    sa, ca = parse_level(a)
    sb, cb = parse_level(b)
    return sa >= sb and ca >= cb


def level_of(label):
    """The MLS level of a single-level SELinux label."""
    return label.split(':', 3)[3]


def run(cmd, check=True, **kw):
    """Runs cmd as the servers' OS user; returns CompletedProcess."""
    full = ['runuser', '-u', RUN_USER, '--', 'env', 'LANG=C.UTF-8'] + cmd
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError('%s failed (%d): %s' % (' '.join(cmd), r.returncode, r.stdout[-2000:]))
    return r


def chown(path):
    subprocess.run(['chown', '-R', RUN_USER, path], check=True)


def free_port():
    import socket
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class TmpfsMount:
    """A tmpfs of the given size mounted at path (made by the run, removed
    by umount()): a disk small enough to fill."""

    def __init__(self, path, size_mb):
        self.path = path
        os.makedirs(path, exist_ok=True)
        subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=%dm,mode=0700' % size_mb,
                        'tmpfs', path], check=True)
        chown(path)
        self.filler = os.path.join(path, 'soak_filler')

    def fill(self):
        """Writes a root-owned file until the file system is full; returns
        the bytes written."""
        n = 0
        with open(self.filler, 'ab', buffering=0) as f:
            for size in (1 << 20, 4096, 512):
                chunk = b'\0' * size
                try:
                    while True:
                        n += f.write(chunk)
                except OSError:
                    pass
        return n

    def free(self):
        try:
            os.unlink(self.filler)
        except FileNotFoundError:
            pass

    def umount(self):
        subprocess.run(['umount', '-l', self.path], check=False)


class Node:
    """A cluster under WORK/name: data directory, socket directory, log."""

    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(WORK, name)
        self.data = os.path.join(self.dir, 'data')
        self.sock = os.path.join(self.dir, 'sock')
        self.log = os.path.join(self.dir, 'postmaster.log')
        self.port = free_port()
        self.mounts = []
        os.makedirs(self.sock, exist_ok=True)
        os.chmod(self.dir, 0o755)
        chown(self.dir)

    def conf_lines(self):
        return ["listen_addresses = ''",
                "unix_socket_directories = '%s'" % self.sock,
                "port = %d" % self.port]

    def append_conf(self, lines):
        with open(os.path.join(self.data, 'postgresql.conf'), 'a') as f:
            for line in lines:
                f.write(line + '\n')

    def initdb(self, conf, waldir=None, extra=()):
        args = [PGBIN + '/initdb', '-D', self.data, '--no-sync', '--locale=C',
                '--encoding=UTF8', '--auth=trust', '-U', 'postgres']
        if waldir:
            args.append('--waldir=' + waldir)
        args += list(extra)
        run(args)
        self.append_conf(self.conf_lines() + ["shared_preload_libraries = 'labelam'"] + conf)

    def start(self, tries=60):
        """pg_ctl start; retried while the processes of a killed postmaster
        still hold its shared memory."""
        last = None
        for _ in range(tries):
            r = run([PGBIN + '/pg_ctl', '-D', self.data, '-l', self.log, '-w', '-t', '120', '-c',
                     'start'], check=False)
            if r.returncode == 0:
                return
            last = r.stdout
            time.sleep(0.5)
        raise RuntimeError('%s does not start: %s\n%s' % (self.name, last, self.log_tail()))

    def stop(self, mode='fast'):
        run([PGBIN + '/pg_ctl', '-D', self.data, '-m', mode, '-w', '-t', '120', 'stop'],
            check=False)

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data, 'postmaster.pid')) as f:
                return int(f.readline())
        except (FileNotFoundError, ValueError):
            return None

    def running(self):
        pid = self.postmaster_pid()
        if pid is None:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        # a pid file left by a killed postmaster can name a reused pid
        try:
            with open('/proc/%d/cmdline' % pid, 'rb') as f:
                return b'postgres' in f.read()
        except FileNotFoundError:
            return False

    def kill9(self):
        pid = self.postmaster_pid()
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return pid

    def log_count(self, text):
        """How many lines of the server log hold text."""
        try:
            with open(self.log, errors='replace') as f:
                return sum(1 for line in f if text in line)
        except FileNotFoundError:
            return 0

    def log_tail(self, n=30):
        try:
            with open(self.log, errors='replace') as f:
                return ''.join(f.readlines()[-n:])
        except FileNotFoundError:
            return ''

    def connect(self, user='postgres', dbname='postgres', autocommit=True, options=None,
                timeout=10):
        kw = dict(host=self.sock, port=self.port, user=user, dbname=dbname,
                  connect_timeout=timeout, application_name='soak')
        if options:
            kw['options'] = options
        conn = psycopg2.connect(**kw)
        conn.autocommit = autocommit
        return conn

    def query(self, sql, user='postgres', args=None):
        conn = self.connect(user=user)
        try:
            with conn.cursor() as cur:
                cur.execute(sql, args)
                return cur.fetchall() if cur.description else None
        finally:
            conn.close()

    def wait_ready(self, timeout=120):
        end = time.time() + timeout
        while time.time() < end:
            try:
                self.query('SELECT 1')
                return True
            except psycopg2.Error:
                time.sleep(0.2)
        return False

    def backend_pids(self, user=None):
        sql = "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        if user:
            sql += " AND usename = %s"
        return [r[0] for r in self.query(sql, args=(user,) if user else None)]


def errcode(exc):
    """SQLSTATE of a psycopg2 error, None for a connection lost."""
    return getattr(exc, 'pgcode', None)
