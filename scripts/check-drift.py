#!/usr/bin/env python3
# scripts/check-drift.py -- labelam's copies of PostgreSQL code against the
# PostgreSQL source of one major.  Each copied function's upstream text (from
# the line before its name -- "static" or its return type -- to its closing
# brace), or each copied whole file, must still hash to the sha256 prefix
# recorded for that major in the copying file's header, written
#
#     NAME sha256 prefix 15: 0123456789abcdef, 18: fedcba9876543210
#
# NAME being "function()" or the upstream file's path (for whole files); the
# line may wrap anywhere inside a comment.  "MAJOR: none" records that the
# copy is not compiled against that major (a #if PG_VERSION_NUM block).  A
# minor release that changed a copied function fails here: bring the copy up
# to date (with a #if block where majors differ) and the recorded hash with
# it.  A major with no recorded hash at all fails too: a new major's copies
# must be looked at before they are trusted.
#
# usage: check-drift.py POSTGRESQL-SOURCE-DIR LABELAM-DIR MAJOR
#        check-drift.py --files      the upstream files it reads
# Prints one "ok"/"n/a"/"DRIFT" line per copy; exit 1 on any drift.
import hashlib
import re
import sys

HEAPAM_HANDLER = 'src/backend/access/heap/heapam_handler.c'
REWRITEHEAP = 'src/backend/access/heap/rewriteheap.c'
DECODE = 'src/backend/replication/logical/decode.c'
REORDERBUFFER = 'src/backend/replication/logical/reorderbuffer.c'
COPIES = [
    # (labelam file, upstream file, upstream function or None for the file)
    ('src/am/heap/index_build.c', HEAPAM_HANDLER, 'heapam_index_build_range_scan'),
    ('src/am/heap/index_validate.c', HEAPAM_HANDLER, 'heapam_index_validate_scan'),
    ('src/am/ddl/index_scan.c', HEAPAM_HANDLER, 'heapam_scan_get_blocks_done'),
    ('src/am/summary/skip.c', 'src/backend/access/heap/heapam.c',
     'heapgettup_pagemode'),
    ('src/am/heap/heap_next.h', 'src/backend/access/heap/heapam.c',
     'heapgettup_pagemode'),
    ('src/am/heap/heap_next.h', 'src/backend/access/heap/heapam.c',
     'heap_getnextslot'),
    ('src/am/summary/skip_stream.c', 'src/backend/access/heap/heapam.c',
     'heap_scan_stream_read_next_serial'),
    ('src/am/summary/skip_stream.c', 'src/backend/access/heap/heapam.c',
     'heap_scan_stream_read_next_parallel'),
    ('src/am/summary/skip_stream.c', 'src/backend/access/heap/heapam.c',
     'heapgettup_initial_block'),
    ('src/am/summary/skip_stream.c', 'src/backend/access/heap/heapam.c',
     'heapgettup_advance_block'),
    ('src/am/summary/skip_bitmap.c', 'src/backend/access/heap/heapam.c',
     'bitmapheap_stream_read_next'),
    # VACUUM FULL and CLUSTER
    ('src/am/ddl/rewrite.c', HEAPAM_HANDLER, 'heapam_relation_copy_for_cluster'),
    ('src/am/ddl/rewrite.c', HEAPAM_HANDLER, 'reform_and_rewrite_tuple'),
    # TOAST rounds
    ('src/am/write/toast.c', 'src/backend/access/heap/heaptoast.c',
     'heap_toast_insert_or_update'),
    # tuple forming
    ('src/am/tuple.c', 'src/backend/access/common/heaptuple.c',
     'heap_form_tuple'),
    # index-only scans
    ('src/am/read/ios.c', 'src/backend/executor/nodeIndexonlyscan.c',
     'IndexOnlyNext'),
    ('src/am/read/ios.c', 'src/backend/executor/nodeIndexonlyscan.c',
     'StoreIndexTuple'),
    ('src/am/read/ios.c', 'src/backend/executor/nodeIndexonlyscan.c',
     'IndexOnlyRecheck'),
    ('src/am/read/ios.c', 'src/backend/executor/nodeIndexonlyscan.c',
     'ExecIndexOnlyScan'),
    # new tuples labelheap toasted itself: heap_insert without the toaster
    ('src/am/heap/insert.c', 'src/backend/access/heap/heapam.c', 'heap_insert'),
    ('src/am/heap/insert.c', 'src/backend/access/heap/heapam.c', 'heap_prepare_insert'),
    ('src/am/heap/insert.c', 'src/backend/access/heap/heapam.c', 'log_heap_new_cid'),
    # new versions labelheap toasted itself: heap_update without the toaster
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'heap_update'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'UpdateXmaxHintBits'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'compute_infobits'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'xmax_infomask_changed'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'get_mxact_status_for_lock'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'GetMultiXactIdHintBits'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'MultiXactIdGetUpdateXid'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'DoesMultiXactIdConflict'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'Do_MultiXactIdWait'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'MultiXactIdWait'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'heap_acquire_tuplock'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'compute_new_xmax_infomask'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'heap_attr_equals'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'HeapDetermineColumnsInfo'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'ExtractReplicaIdentity'),
    ('src/am/heap/update.c', 'src/backend/access/heap/heapam.c', 'log_heap_update'),
    # contrib/sepgsql's functions that labelam's object checks follow
    ('src/objects/check.c', 'contrib/sepgsql/uavc.c', 'sepgsql_avc_check_perms_label'),
    ('src/objects/check.c', 'contrib/sepgsql/uavc.c', 'sepgsql_avc_check_perms'),
    ('src/objects/check.c', 'contrib/sepgsql/uavc.c', 'sepgsql_avc_trusted_proc'),
    ('src/objects/check.c', 'contrib/sepgsql/selinux.c', 'sepgsql_audit_log'),
    ('src/objects/check.c', 'contrib/sepgsql/selinux.c', 'sepgsql_getenforce'),
    ('src/objects/check.c', 'contrib/sepgsql/selinux.c', 'sepgsql_compute_create'),
    ('src/objects/dispatch.c', 'contrib/sepgsql/hooks.c', 'sepgsql_object_access'),
    ('src/objects/dispatch.c', 'contrib/sepgsql/hooks.c', 'sepgsql_exec_check_perms'),
    ('src/objects/dispatch.c', 'contrib/sepgsql/hooks.c', 'sepgsql_utility_command'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'sepgsql_needs_fmgr_hook'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'sepgsql_fmgr_hook'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'sepgsql_get_label'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'sepgsql_object_relabel'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'quote_object_name'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'exec_object_restorecon'),
    ('src/objects/label.c', 'contrib/sepgsql/label.c', 'sepgsql_restorecon'),
    # whole files: contrib/sepgsql's object checks
    ('src/objects/database.c', 'contrib/sepgsql/database.c', None),
    ('src/objects/schema.c', 'contrib/sepgsql/schema.c', None),
    ('src/objects/relation.c', 'contrib/sepgsql/relation.c', None),
    ('src/objects/proc.c', 'contrib/sepgsql/proc.c', None),
    ('src/objects/dml.c', 'contrib/sepgsql/dml.c', None),
    # VACUUM FULL and CLUSTER's writer: rewriteheap.c without the toaster
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'begin_heap_rewrite'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'end_heap_rewrite'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'rewrite_heap_tuple'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'rewrite_heap_dead_tuple'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'raw_heap_insert'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'logical_begin_heap_rewrite'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'logical_heap_rewrite_flush_mappings'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'logical_end_heap_rewrite'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'logical_rewrite_log_mapping'),
    ('src/am/heap/rewriteheap.c', REWRITEHEAP, 'logical_rewrite_heap_tuple'),
    # not copies: the decoding code whose behaviour logical replication's
    # filter relies on (which records become which changes, keyed by which
    # LSN; which tuples TOAST reassembly re-forms; how BEGIN and a stream's
    # first segment are told)
    ('src/am/replication/decode.c', DECODE, 'DecodeInsert'),
    ('src/am/replication/decode.c', DECODE, 'DecodeUpdate'),
    ('src/am/replication/decode.c', DECODE, 'DecodeDelete'),
    ('src/am/replication/decode.c', DECODE, 'DecodeMultiInsert'),
    ('src/am/replication/decode.c', DECODE, 'logicalmsg_decode'),
    ('src/am/replication/decode.c', REORDERBUFFER, 'ReorderBufferToastReplace'),
    ('src/am/replication/output.c', REORDERBUFFER, 'ReorderBufferFinishPrepared'),
    ('src/am/replication/output.c', 'src/backend/replication/logical/logical.c',
     'begin_cb_wrapper'),
    ('src/am/replication/output.c', 'src/backend/replication/pgoutput/pgoutput.c',
     'pgoutput_stream_start'),
]


def upstream_text(path, func):
    text = open(path).read()
    if func is None:
        return text
    lines = text.split('\n')
    for i, line in enumerate(lines):
        # a definition: the name at the start of a line, its return type
        # (or "static ...") alone on the line before
        if line.startswith(func + '(') and i > 0 and lines[i - 1] and \
                not lines[i - 1].endswith((';', '*/', ',')) and \
                not lines[i - 1].startswith(('#', ' ', '\t', '*')):
            end = lines.index('}', i)
            return '\n'.join(lines[i - 1:end + 1]) + '\n'
    return None


def header_text(path):
    """The file's first comment, its lines joined without the ' * '."""
    text = open(path).read()
    end = text.find('*/')
    body = text[:end if end >= 0 else 6000]
    return ' '.join(re.sub(r'^\s*/?\*+\s?', '', line).strip()
                    for line in body.split('\n'))


def recorded(header, name):
    """{major: hash or 'none'} recorded for name, or None."""
    # (not inside a longer name: MultiXactIdWait() in Do_MultiXactIdWait())
    m = re.search(r'(?<!\w)' + re.escape(name) +
                  r'\s+sha256 prefix\s+((?:\d+:\s*(?:[0-9a-f]{16}|none)(?:,\s*)?)+)',
                  header)
    if m is None:
        return None
    return dict(re.findall(r'(\d+):\s*([0-9a-f]{16}|none)', m.group(1)))


def main():
    if sys.argv[1:] == ['--files']:
        print('\n'.join(sorted({theirs for _, theirs, _ in COPIES})))
        return
    src, top, major = sys.argv[1], sys.argv[2], sys.argv[3]
    bad = 0
    for ours, theirs, func in COPIES:
        name = f'{func}()' if func else theirs
        hashes = recorded(header_text(f'{top}/{ours}'), name)
        if hashes is None:
            print(f'DRIFT {ours}: no "{name} sha256 prefix ..." in its header')
            bad += 1
            continue
        want = hashes.get(major)
        if want is None:
            print(f'DRIFT {ours}: {name}: no hash recorded for PostgreSQL {major} '
                  '(look at the copy against that major, then record it)')
            bad += 1
            continue
        if want == 'none':
            print(f'n/a {ours}: {name} not compiled against PostgreSQL {major}')
            continue
        text = upstream_text(f'{src}/{theirs}', func)
        if text is None:
            print(f'DRIFT {ours}: {name} not found in {theirs}')
            bad += 1
            continue
        got = hashes_of(text)
        if got == want:
            print(f'ok {ours}: {name} unchanged upstream in {major} ({got})')
        else:
            print(f'DRIFT {ours}: {name} changed upstream in {major} ({want} -> {got})')
            bad += 1
    sys.exit(1 if bad else 0)


def hashes_of(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


main()
