#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic perf.data with branch stacks, as perf record -b/-j or
--call-graph lbr writes it: one cycles attr (sample_type IP, TID, TIME,
PERIOD, BRANCH_STACK; sample_id_all), a COMM and an executable MMAP2 of DSO
(the whole file, page offset 0, at 0x7f0000000000) for pid 4242 (and each
other PID named), then one sample per SAMPLE argument.  Addresses are hex
offsets into DSO, or =ADDR (hex) for the absolute address ADDR.

A SAMPLE is ';'-separated KEY=VALUE items:
  ip=ADDR         the sampled address (user); default: the first branch's to
  pid=N           the process (4242)
  period=N        the sample's period (1)
  k=ADDR,...      kernel frames (--lbr): the sample is in the kernel at the
                  first, the chain PERF_CONTEXT_KERNEL, these, then
                  PERF_CONTEXT_USER and ip
  idx=N           the hw_idx (with --hw-idx or --lbr; default: nr - 1)
  br=FROM>TO[/FLAGS],...   the branch entries, newest first; FLAGS is the
                  entry's third u64 in hex (mispred bit 0, predicted 1,
                  in_tx 2, abort 3, cycles 4-19, type 20-23, spec 24-25,
                  new_type 26-29, priv 30-32)

Options before the samples:
  --bst=HEX   branch_sample_type (default ANY, 0x8)
  --hw-idx    add HW_INDEX to it: each sample has hw_idx
  --lbr       an LBR call-stack file (--call-graph lbr): CALLCHAIN sampled
              too, branch_sample_type USER|CALL_STACK|NO_FLAGS|NO_CYCLES|
              HW_INDEX, no HEADER_BRANCH_STACK feature (perf record sets it
              for -b/-j only)
  --bench=N,NR  N generated samples of NR branches each (512 branch sites
              in the first 64 KB of DSO, 1 to 8 cycles, a fixed random
              order), instead of SAMPLE arguments

Usage: mk-perf-data-branch.py OUT.data DSO [OPTIONS] SAMPLE...
"""
import os
import random
import struct
import sys

out, dso = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
bst = 0x8
lbr = False
bench = None
while args and args[0].startswith('--'):
    a = args.pop(0)
    if a.startswith('--bst='):
        bst = int(a[6:], 16)
    elif a == '--hw-idx':
        bst |= 1 << 17
    elif a == '--lbr':
        lbr = True
        bst = 0x1 | 0x800 | 0x8000 | 0x10000 | 0x20000
    elif a.startswith('--bench='):
        bench = [int(x) for x in a[8:].split(',')]
    else:
        sys.exit('mk-perf-data-branch.py: unknown option ' + a)
hw_idx = bool(bst & (1 << 17))
base = 0x7f0000000000
CTX_KERNEL, CTX_USER = 0xffffffffffffff80, 0xfffffffffffffe00


def address(o):
    """=ADDR: that address; OFFSET: DSO's mapping + OFFSET"""
    return int(o[1:], 16) if o.startswith('=') else base + int(o, 16)


def parse(spec):
    s = {'pid': 4242, 'period': 1, 'k': [], 'br': []}
    for item in spec.split(';'):
        key, _, val = item.partition('=')
        if key in ('pid', 'period', 'idx'):
            s[key] = int(val)
        elif key == 'ip':
            s['ip'] = address(val)
        elif key == 'k':
            s['k'] = [address(v) for v in val.split(',')]
        elif key == 'br':
            for e in val.split(',') if val else []:
                ft, _, flags = e.partition('/')
                f, _, t = ft.partition('>')
                s['br'].append((address(f), address(t), int(flags or '0', 16)))
        else:
            sys.exit('mk-perf-data-branch.py: unknown key ' + key)
    if 'ip' not in s:
        s['ip'] = s['br'][0][1] if s['br'] else base
    return s


sample_type = 0x107 | 0x800		# IP, TID, TIME, PERIOD, BRANCH_STACK
if lbr:
    sample_type |= 0x20		# CALLCHAIN
attr = bytearray(128)
flags = (1 << 8) | (1 << 9) | (1 << 10) | (1 << 18)	# mmap, comm, freq, sample_id_all
struct.pack_into('<IIQQQQQ', attr, 0, 0, 128, 0, 4000, sample_type, 0, flags)
struct.pack_into('<Q', attr, 72, bst)			# branch_sample_type
attrs = bytes(attr) + struct.pack('<QQ', 0, 0)
now = [1000]


def record(rtype, misc, body):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def sample_id(pid):
    now[0] += 1
    return struct.pack('<IIQ', pid, pid, now[0])


def sample(s):
    now[0] += 1
    pid = s['pid']
    ip, misc = (s['k'][0], 1) if s['k'] else (s['ip'], 2)	# cpumode kernel, user
    body = struct.pack('<QIIQQ', ip, pid, pid, now[0], s['period'])
    if lbr:
        chain = ([CTX_KERNEL] + s['k'] if s['k'] else []) + [CTX_USER, s['ip']]
        body += struct.pack('<Q', len(chain)) + b''.join(struct.pack('<Q', a) for a in chain)
    br = s['br']
    body += struct.pack('<Q', len(br))
    if hw_idx:
        body += struct.pack('<Q', s.get('idx', max(len(br) - 1, 0)))
    body += b''.join(struct.pack('<QQQ', f, t, fl) for f, t, fl in br)
    return record(9, misc, body)


def bench_samples(n, nr):
    """n samples of nr branches: 512 branch sites (a fixed from -> to each,
    in the first 64 KB of DSO) with 1 to 8 cycles, picked at random (fixed
    seed), as the branches of a program's hot loops"""
    rnd = random.Random(21)
    sites = [(base + 0x1000 + rnd.randrange(0x10000), base + 0x1000 + rnd.randrange(0x10000))
             for _ in range(512)]
    variants = [struct.pack('<QQQ', f, t, c << 4 | 2) for f, t in sites for c in range(1, 9)]
    out = []
    for i in range(n):
        ents = rnd.choices(variants, k=nr)
        now[0] += 1
        body = struct.pack('<QIIQQ', struct.unpack_from('<Q', ents[0], 8)[0], 4242, 4242,
                           now[0], 1)
        out.append(record(9, 2, body + struct.pack('<Q', nr) + b''.join(ents)))
    return out


samples = [parse(a) for a in args]
pids = sorted({s['pid'] for s in samples} | {4242})
recs = []
name = dso.encode() + b'\0'
name += b'\0' * (-len(name) % 8)
size = (os.path.getsize(dso) + 4095) & ~4095
for pid in pids:
    recs.append(record(3, 0, struct.pack('<II', pid, pid) + b'brprobe'.ljust(16, b'\0') +
                       sample_id(pid)))
    recs.append(record(10, 2, struct.pack('<IIQQQIIQQII', pid, pid, base, size, 0, 8, 1, 1,
                                          0, 5, 2) + name + sample_id(pid)))
recs += bench_samples(*bench) if bench else [sample(s) for s in samples]
data = b''.join(recs)
feats = 0 if lbr else 1 << 15		# HEADER_BRANCH_STACK: no data
data_end = 104 + len(attrs) + len(data)
with open(out, 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, len(attrs), 104, len(attrs),
                                      104 + len(attrs), len(data), 0, 0))
    f.write(struct.pack('<QQQQ', feats, 0, 0, 0) + attrs + data)
    if feats:
        f.write(struct.pack('<QQ', data_end + 16, 0))
