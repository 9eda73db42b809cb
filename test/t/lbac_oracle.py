#!/usr/bin/python3
# test/t/lbac_oracle.py SEED NROLES CASES [SESSIONS] -- an independent
# oracle for the
# lbac provider: a random label model (levels, compartments, a tree of
# groups), random authorizations of NROLES roles lbac_rN, and CASES
# decisions a role, each written from Oracle Label Security's documented
# rules (Oracle Label Security Administrator's Guide, "Access Controls and
# Privileges": the label evaluation processes for read access, write
# access, read and write access with the COMPACCESS privilege, and for
# LABEL_UPDATE; "Subgroup inheritance of read/write access"), not from
# labelam's code.  Prints, tab-separated:
#
#   SQL      statement                 the model and the authorizations
#   CASE     role label row perm t|f   may role, at session label, have
#                                      the db_tuple permission perm on a
#                                      row labeled row?
#   RELABEL  role label from to t|f    does LABEL_UPDATE let role, at
#                                      session label, change a row's label
#                                      from "from" to "to"?
#   ROW      id label                  every row label the cases use
#   SESSION  role label read write     for the first SESSIONS roles: the
#                                      ids of the rows a session at label
#                                      reads, and of those it may update
#
# Labels are written in random case, order and spacing: each must mean
# what its canonical form means.
import random
import sys

PRIVS = ["READ", "FULL", "COMPACCESS", "WRITEUP", "WRITEDOWN", "WRITEACROSS"]
READ_PERMS = ["select"]
WRITE_PERMS = ["insert", "update", "delete", "relabelfrom", "relabelto"]


class Model:
    def __init__(self, rnd):
        self.rnd = rnd
        # levels: numbers decide the order, not names or creation order
        names = ["PUB", "INT", "CONF", "SEC", "TOP"]
        nums = sorted(rnd.sample(range(1, 900), len(names)))
        self.level_num = dict(zip(names, nums))
        self.levels = names          # ascending sensitivity
        self.comps = ["FIN", "HR", "OPS", "LEGAL", "RND"]
        self.comp_num = dict(zip(self.comps, rnd.sample(range(1, 900), 5)))
        # a group tree: NA > US > US_W, US_E; NA > CA; EU > FR, DE
        self.parent = {"NA": None, "US": "NA", "US_W": "US", "US_E": "US",
                       "CA": "NA", "EU": None, "FR": "EU", "DE": "EU"}
        self.groups = list(self.parent)
        self.group_num = dict(zip(self.groups, rnd.sample(range(1, 900), len(self.groups))))

    def subgroups(self, g):
        """g and every group below it: holding a group grants its subgroups"""
        out = {g}
        for h in self.groups:
            p = self.parent[h]
            while p is not None:
                if p == g:
                    out.add(h)
                p = self.parent[p]
        return out

    def with_subgroups(self, groups):
        out = set()
        for g in groups:
            out |= self.subgroups(g)
        return out

    def sql(self):
        out = []
        for name in self.levels:
            out.append("SELECT lbac.create_level('%s', %d)" % (name, self.level_num[name]))
        for name in self.comps:
            out.append("SELECT lbac.create_compartment('%s', %d)" % (name, self.comp_num[name]))
        # parents first
        done = set()
        while len(done) < len(self.groups):
            for g in self.groups:
                p = self.parent[g]
                if g not in done and (p is None or p in done):
                    out.append("SELECT lbac.create_group('%s', %d, NULL, %s)" %
                               (g, self.group_num[g], "NULL" if p is None else "'%s'" % p))
                    done.add(g)
        return out

    def write_label(self, level, comps, groups):
        """label text in a random but equivalent spelling"""
        rnd = self.rnd
        def name(n):
            return n.lower() if rnd.random() < 0.3 else n
        def sp():
            return " " if rnd.random() < 0.15 else ""
        c = list(comps)
        g = list(groups)
        rnd.shuffle(c)
        rnd.shuffle(g)
        text = sp() + name(level) + sp()
        if c or g or rnd.random() < 0.1:
            text += ":" + ",".join(sp() + name(x) + sp() for x in c)
        if g:
            text += ":" + ",".join(sp() + name(x) + sp() for x in g)
        return text

    def random_label(self, near=None):
        """any label, or (half the time) one near a session label: a level
        not above it, some of its compartments, groups at or below its
        groups, so that the sample has grants too"""
        rnd = self.rnd
        if near is not None and rnd.random() < 0.5:
            level = rnd.choice(self.levels[:self.levels.index(near[0]) + 1])
            comps = set(x for x in near[1] if rnd.random() < 0.5)
            groups = set(x for x in self.with_subgroups(near[2]) if rnd.random() < 0.3)
            if rnd.random() < 0.2:
                comps.add(rnd.choice(self.comps))
            if rnd.random() < 0.2:
                groups.add(rnd.choice(self.groups))
        else:
            level = rnd.choice(self.levels)
            comps = set(x for x in self.comps if rnd.random() < 0.25)
            groups = set(x for x in self.groups if rnd.random() < 0.15)
        return (level, frozenset(comps), frozenset(groups))


class User:
    """an authorization (SA_USER_ADMIN) and a session label within it"""

    def __init__(self, model, rnd, name):
        self.model = model
        self.name = name
        lv = model.levels
        i_max = rnd.randrange(len(lv))
        i_min = rnd.randrange(i_max + 1)
        i_def = rnd.randrange(i_min, i_max + 1)
        i_row = rnd.randrange(i_min, i_def + 1)
        self.max, self.min, self.dflt, self.row = lv[i_max], lv[i_min], lv[i_def], lv[i_row]
        self.read_comps = set(x for x in model.comps if rnd.random() < 0.5)
        self.write_comps = set(x for x in self.read_comps if rnd.random() < 0.6)
        self.def_comps = set(x for x in self.read_comps if rnd.random() < 0.7)
        self.row_comps = set(x for x in self.write_comps & self.def_comps if rnd.random() < 0.7)
        self.read_groups = set(x for x in model.groups if rnd.random() < 0.2)
        reach = model.with_subgroups(self.read_groups)
        self.write_groups = set(x for x in reach if rnd.random() < 0.4)
        self.def_groups = set(x for x in reach if rnd.random() < 0.4)
        row_reach = model.with_subgroups(self.write_groups) & model.with_subgroups(self.def_groups)
        self.row_groups = set(x for x in row_reach if rnd.random() < 0.5)
        self.privs = set(p for p in PRIVS if rnd.random() < 0.12)

    def sql(self):
        def lst(s):
            return ",".join(sorted(s))
        out = ["SELECT lbac.set_levels('%s', '%s', '%s', '%s', '%s')" %
               (self.name, self.max, self.min, self.dflt, self.row),
               "SELECT lbac.set_compartments('%s', '%s', '%s', '%s', '%s')" %
               (self.name, lst(self.read_comps), lst(self.write_comps),
                lst(self.def_comps), lst(self.row_comps)),
               "SELECT lbac.set_groups('%s', '%s', '%s', '%s', '%s')" %
               (self.name, lst(self.read_groups), lst(self.write_groups),
                lst(self.def_groups), lst(self.row_groups))]
        if self.privs:
            out.append("SELECT lbac.grant_privileges('%s', '%s')" %
                       (self.name, ",".join(sorted(self.privs))))
        return out

    def session(self, rnd):
        """a session label the user may set: level between minimum and
        maximum, authorized compartments, authorized groups or groups below
        them"""
        lv = self.model.levels
        level = lv[rnd.randrange(lv.index(self.min), lv.index(self.max) + 1)]
        comps = frozenset(x for x in self.read_comps if rnd.random() < 0.7)
        reach = self.model.with_subgroups(self.read_groups)
        groups = frozenset(x for x in reach if rnd.random() < 0.4)
        return (level, comps, groups)


def rank(model, level):
    return model.levels.index(level)


def read_access(model, user, session, row):
    """Label evaluation process for read access (with COMPACCESS: its own
    process); READ and FULL read every row"""
    if "READ" in user.privs or "FULL" in user.privs:
        return True
    s_level, s_comps, s_groups = session
    r_level, r_comps, r_groups = row
    # Test 1: levels
    if rank(model, r_level) > rank(model, s_level):
        return False
    if "COMPACCESS" in user.privs:
        # Test 2: does the data have groups?  does the user have any group?
        case = "A"
        if r_groups and not s_groups:
            case = "B"
        # Test 3: compartments
        if not r_comps:
            return case == "A"
        return r_comps <= s_comps
    # Test 2: the user has at least one of the row's groups, or a parent
    if r_groups and not (r_groups & model.with_subgroups(s_groups)):
        return False
    # Test 3: the user has all of the row's compartments
    return r_comps <= s_comps


def write_access(model, user, session, row):
    """Label evaluation process for write access (with COMPACCESS: its
    own process); FULL writes every row"""
    if "FULL" in user.privs:
        return True
    s_level, s_comps, s_groups = session
    r_level, r_comps, r_groups = row
    # Test 1: row level at most the session's, at least the minimum
    if rank(model, r_level) > rank(model, s_level):
        return False
    if rank(model, r_level) < rank(model, user.min):
        return False
    # the session's compartments the user may write; the session's groups
    # (and their subgroups) that the user may write (write access to a
    # parent group is inherited by its subgroups)
    w_comps = s_comps & user.write_comps
    w_groups = model.with_subgroups(s_groups) & model.with_subgroups(user.write_groups)
    if "COMPACCESS" in user.privs:
        # Test 2: does the data have groups?  does the user have a group
        # with write access?
        if not r_groups:
            case = "A"
        elif w_groups:
            case = "C"
        else:
            case = "B"
        # Test 3
        if case == "A":
            return not r_comps or r_comps <= w_comps
        if case == "B":
            return bool(r_comps) and r_comps <= w_comps
        return not r_comps or r_comps <= s_comps
    if not r_groups:
        # Case A: every row compartment with write access
        return not r_comps or r_comps <= w_comps
    # Test 2: write access to at least one of the row's groups
    if not (r_groups & w_groups):
        return False
    # Case B: every row compartment, read access suffices
    return not r_comps or r_comps <= s_comps


def label_update(model, user, old, new):
    """Label evaluation process for LABEL_UPDATE"""
    o_level, o_comps, o_groups = old
    n_level, n_comps, n_groups = new
    o, n = rank(model, o_level), rank(model, n_level)
    if n < o or n > o:
        # Test 1 / 3: lowering needs WRITEDOWN (Test 2), raising WRITEUP (Test 5)
        if n < o and "WRITEDOWN" not in user.privs:
            return False
        if n > o and "WRITEUP" not in user.privs:
            return False
        # Test 4: the new level within the user's minimum and maximum
        if n > rank(model, user.max) or n < rank(model, user.min):
            return False
    # Test 6 / 8: other groups or compartments need WRITEACROSS (Test 7)
    if n_groups != o_groups or n_comps != o_comps:
        return "WRITEACROSS" in user.privs
    return True


def main():
    seed, nroles, ncases = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    nsessions = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rnd = random.Random(seed)
    model = Model(rnd)
    for s in model.sql():
        print("SQL\t" + s)
    users = [User(model, rnd, "lbac_r%d" % i) for i in range(1, nroles + 1)]
    for u in users:
        for s in u.sql():
            print("SQL\t" + s)
    rows = set()
    for u in users:
        for _ in range(ncases):
            session = u.session(rnd)
            row = model.random_label(session)
            rows.add(row)
            perm = rnd.choice(READ_PERMS * 3 + WRITE_PERMS)
            ok = (read_access(model, u, session, row) if perm in READ_PERMS
                  else write_access(model, u, session, row))
            print("CASE\t%s\t%s\t%s\t%s\t%s" % (
                u.name, model.write_label(*session), model.write_label(*row),
                perm, "t" if ok else "f"))
        for _ in range(ncases // 5):
            session = u.session(rnd)
            old = model.random_label(session)
            # often a neighbour of the old label: one part changed
            new = list(old)
            part = rnd.randrange(4)
            if part == 0:
                new[0] = rnd.choice(model.levels)
            elif part == 1:
                new[1] = frozenset(x for x in model.comps if rnd.random() < 0.25)
            elif part == 2:
                new[2] = frozenset(x for x in model.groups if rnd.random() < 0.15)
            else:
                new = list(model.random_label())
            new = tuple(new)
            print("RELABEL\t%s\t%s\t%s\t%s\t%s" % (
                u.name, model.write_label(*session), model.write_label(*old),
                model.write_label(*new),
                "t" if label_update(model, u, old, new) else "f"))
    rows = sorted(rows, key=lambda r: (rank(model, r[0]), sorted(r[1]), sorted(r[2])))
    rows = rnd.sample(rows, min(len(rows), 400))
    for i, r in enumerate(rows, 1):
        print("ROW\t%d\t%s" % (i, model.write_label(*r)))
    # sessions of the first roles, through the row filter and the write
    # path: the rows each reads, and those of them it may update
    for u in users[:nsessions]:
        session = u.session(rnd)
        readable = [i for i, r in enumerate(rows, 1)
                    if read_access(model, u, session, r)]
        writable = [i for i in readable
                    if write_access(model, u, session, rows[i - 1])]
        print("SESSION\t%s\t%s\t%s\t%s" % (
            u.name, model.write_label(*session),
            ",".join(map(str, readable)) or "-",
            ",".join(map(str, writable)) or "-"))

if __name__ == "__main__":
    main()
