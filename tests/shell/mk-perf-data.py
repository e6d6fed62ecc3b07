#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic perf.data: one cpu-clock attr (sample_type IP, TID,
TIME, PERIOD; sample_id_all), a COMM and an executable MMAP2 of DSO (the
whole file, page offset 0, at 0x7f0000000000) for pid 4242, then one user
sample at each file offset given (hex).  perf resolves each sample's
address in DSO as it resolves any other.  With -g, each argument is a
user callchain of offsets, the sample's first (PERF_SAMPLE_CALLCHAIN too).
DSO "//anon" maps 1 MB of anonymous read-write memory instead.  OFFSET@PID
is a sample of process PID (same comm, same mapping; 4242 by default).

Usage: mk-perf-data.py OUT.data DSO [-g] OFFSET[,OFFSET...][@PID]...
"""
import os
import struct
import sys

out, dso = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
chains = args[:1] == ['-g']
if chains:
    args = args[1:]
# OFFSET...@PID: a sample of another process (the same comm and mapping)
pids = [int(a.split('@')[1]) if '@' in a else 4242 for a in args]
offsets = [[int(o, 16) for o in a.split('@')[0].split(',')] for a in args]
base = 0x7f0000000000
attr = bytearray(128)
flags = (1 << 8) | (1 << 9) | (1 << 18)		# mmap, comm, sample_id_all
sample_type = 0x127 if chains else 0x107	# IP, TID, TIME, PERIOD (, CALLCHAIN)
struct.pack_into('<IIQQQQQ', attr, 0, 1, 128, 0, 4000, sample_type, 0, flags)
attrs = bytes(attr) + struct.pack('<QQ', 0, 0)
now = [1000]


def record(rtype, misc, body):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def sample_id(pid):
    now[0] += 1
    return struct.pack('<IIQ', pid, pid, now[0])


recs = []
name = dso.encode() + b'\0'
name += b'\0' * (-len(name) % 8)
for pid in sorted(set(pids)):
    recs.append(record(3, 0, struct.pack('<II', pid, pid) + b'symprobe'.ljust(16, b'\0') +
                       sample_id(pid)))
    if dso == '//anon':	# anonymous memory, read-write: 1 MB of it, as the kernel gives it
        recs.append(record(10, 2, struct.pack('<IIQQQIIQQII', pid, pid, base, 1 << 20, base, 0,
                                              0, 0, 0, 3, 0x22) + name + sample_id(pid)))
    else:
        size = (os.path.getsize(dso) + 4095) & ~4095
        recs.append(record(10, 2, struct.pack('<IIQQQIIQQII', pid, pid, base, size, 0, 8, 1, 1,
                                              0, 5, 2) + name + sample_id(pid)))
for pid, chain in zip(pids, offsets):
    now[0] += 1
    body = struct.pack('<QIIQQ', base + chain[0], pid, pid, now[0], 1)
    if chains:		# PERF_CONTEXT_USER, then the addresses
        body += struct.pack('<QQ', len(chain) + 1, 0xfffffffffffffe00)
        body += b''.join(struct.pack('<Q', base + o) for o in chain)
    recs.append(record(9, 2, body))
data = b''.join(recs)
with open(out, 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, len(attrs), 104, len(attrs),
                                      104 + len(attrs), len(data), 0, 0))
    f.write(bytes(32) + attrs + data)
