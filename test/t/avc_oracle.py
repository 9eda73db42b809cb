#!/usr/bin/python3
# test/t/avc_oracle.py POLICY COUNT SEED -- an independent oracle for labelam's
# db_tuple decisions: samples COUNT (subject, object) context pairs valid in
# the binary SELinux policy POLICY and prints, for each, what the policy
# allows, computed with setools (the library behind sesearch and seinfo),
# not with libsepol:
#
#   subject TAB object TAB allowed-perms TAB new-row-label TAB constrained
#
# allowed-perms: the db_tuple permissions granted by the enabled allow
# rules (attributes expanded, booleans at their default state), minus those
# that a constrain/mlsconstrain rule of class db_tuple forbids for the pair
# (the expressions are evaluated here); comma-separated, "-" for none.
# new-row-label: the label of a row the subject creates under the object
# (type_transition rule for db_tuple, else the object's type; the subject's
# user and low level, role object_r).
# constrained: "constrained" if a constraint took permissions away, else "-".
import random
import sys

import setools

PERMS = ["select", "insert", "update", "delete", "relabelfrom", "relabelto",
         "use"]


def main():
    path, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(seed)
    p = setools.SELinuxPolicy(path)
    mls = p.mls

    def expand(x):
        return {str(t) for t in x.expand()}

    # allow rules and type transitions of db_tuple, attributes expanded
    allow = {}
    for r in setools.TERuleQuery(p, ruletype=["allow"], tclass=["db_tuple"]).results():
        if not r.enabled():
            continue
        for s in expand(r.source):
            for t in expand(r.target):
                allow.setdefault((s, t), set()).update(str(x) for x in r.perms)
    if any(True for _ in setools.DefaultQuery(p).results()) or \
       any(str(r.tclass) == "db_tuple" for r in setools.RBACRuleQuery(p, ruletype=["role_transition"]).results()) or \
       any(str(r.tclass) == "db_tuple" for r in setools.MLSRuleQuery(p, ruletype=["range_transition"]).results()):
        raise SystemExit("this oracle does not model default_*, role or range transitions")
    trans = {}
    for r in setools.TERuleQuery(p, ruletype=["type_transition"], tclass=["db_tuple"]).results():
        if not r.enabled():
            continue
        for s in expand(r.source):
            for t in expand(r.target):
                trans[(s, t)] = str(r.default)

    constraints = [c for c in p.constraints()
                   if str(c.ruletype) in ("constrain", "mlsconstrain")
                   and str(c.tclass) == "db_tuple"]

    # sensitivities in dominance order
    sens_order = {str(s): i for i, s in enumerate(sorted(p.sensitivities()))}

    def level(lv):
        return (sens_order[str(lv.sensitivity)], frozenset(str(c) for c in lv.categories()))

    def dom(a, b):
        return a[0] >= b[0] and a[1] >= b[1]

    def names_of(obj):
        out = set()
        for n in obj:
            if isinstance(n, (setools.policyrep.TypeAttribute, setools.policyrep.Type)):
                out |= expand(n)
            else:
                out.add(str(n))
        return out

    def evaluate(expr, subj, obj):
        stack = []
        for tok in expr:
            if isinstance(tok, (frozenset, set)):
                stack.append(("names", names_of(tok)))
            elif tok in ("u1", "u2", "r1", "r2", "t1", "t2", "l1", "l2", "h1", "h2"):
                ctx = subj if tok[1] == "1" else obj
                stack.append((tok[0], ctx[tok[0]]))
            elif tok == "not":
                stack.append(not stack.pop())
            elif tok in ("and", "or"):
                b, a = stack.pop(), stack.pop()
                stack.append((a and b) if tok == "and" else (a or b))
            else:
                b, a = stack.pop(), stack.pop()
                if b[0] == "names":
                    v = a[1] in b[1]
                    stack.append(v if tok == "==" else not v)
                elif a[0] in ("l", "h"):
                    x, y = a[1], b[1]
                    stack.append({"==": x == y, "!=": x != y,
                                  "dom": dom(x, y), "domby": dom(y, x),
                                  "incomp": not dom(x, y) and not dom(y, x)}[tok])
                elif tok in ("==", "!="):
                    stack.append((a[1] == b[1]) == (tok == "=="))
                else:
                    raise SystemExit("unsupported constraint operator %s" % tok)
        assert len(stack) == 1
        return stack[0]

    def decide(subj, obj):
        """(allowed perms, whether a constraint took some away)"""
        perms = set(allow.get((subj["t"], obj["t"]), ()))
        constrained = False
        for c in constraints:
            affected = perms & {str(x) for x in c.perms}
            if affected and not evaluate(list(c.expression), subj, obj):
                perms -= affected
                constrained = True
        return perms, constrained

    # contexts: users, their roles, the roles' types, levels in the user's range
    users = sorted(p.users(), key=str)
    subject_types = {s for (s, t) in allow}
    object_types = sorted({t for (s, t) in allow} | {t for (s, t) in trans})
    all_types = sorted(str(t) for t in p.types())
    cats_pool = ["c%d" % i for i in range(8)]

    def random_level(rng_low, rng_high):
        lo, hi = level(rng_low), level(rng_high)
        s = rnd.randint(lo[0], hi[0])
        cats = frozenset(c for c in cats_pool if c in hi[1] and rnd.random() < 0.3)
        cats |= lo[1]
        return (s, cats)

    sens_name = {i: s for s, i in sens_order.items()}

    def level_text(lv):
        """canonical: runs of three or more categories written cA.cB"""
        s = sens_name[lv[0]]
        nums = sorted(int(c[1:]) for c in lv[1])
        parts = []
        i = 0
        while i < len(nums):
            j = i
            while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
                j += 1
            if j - i >= 2:
                parts.append("c%d.c%d" % (nums[i], nums[j]))
            else:
                parts.extend("c%d" % n for n in nums[i:j + 1])
            i = j + 1
        if parts:
            s += ":" + ",".join(parts)
        return s

    def random_subject():
        while True:
            u = rnd.choice(users)
            roles = sorted((r for r in u.roles if str(r) != "object_r"), key=str)
            if not roles:
                continue
            r = rnd.choice(roles)
            types = sorted(str(t) for t in r.types())
            good = [t for t in types if t in subject_types]
            if good and rnd.random() < 0.8:
                t = rnd.choice(good)
            elif types:
                t = rnd.choice(types)
            else:
                continue
            ctx = {"u": str(u), "r": str(r), "t": t}
            if mls:
                low = random_level(u.mls_range.low, u.mls_range.high)
                high = random_level(u.mls_range.low, u.mls_range.high)
                if not dom(high, low):
                    low, high = high, low
                if not dom(high, low):
                    high = (max(low[0], high[0]), low[1] | high[1])
                ctx["l"], ctx["h"] = low, high
            return ctx

    def random_object():
        # objects of other users than system_u bring in the UBAC constraint
        u = p.lookup_user("system_u") if rnd.random() < 0.5 else rnd.choice(users)
        t = rnd.choice(object_types) if rnd.random() < 0.85 else rnd.choice(all_types)
        ctx = {"u": str(u), "r": "object_r", "t": t}
        if mls:
            lv = random_level(u.mls_range.low, u.mls_range.high)
            ctx["l"] = ctx["h"] = lv
        return ctx

    def text(ctx):
        s = "%s:%s:%s" % (ctx["u"], ctx["r"], ctx["t"])
        if mls:
            s += ":" + level_text(ctx["l"])
            if ctx["h"] != ctx["l"]:
                s += "-" + level_text(ctx["h"])
        return s

    for _ in range(count):
        subj, obj = random_subject(), random_object()
        perms, constrained = decide(subj, obj)
        # a new row: the creator's user, object_r, the transition's type or
        # the parent's, the creator's low level (no default_* rules, no
        # role or range transitions for db_tuple in these policies)
        new = {"u": subj["u"], "r": "object_r",
               "t": trans.get((subj["t"], obj["t"]), obj["t"])}
        if mls:
            new["l"] = new["h"] = subj["l"]
        print("\t".join([text(subj), text(obj),
                         ",".join(x for x in PERMS if x in perms) or "-",
                         text(new),
                         "constrained" if constrained else "-"]))


main()
