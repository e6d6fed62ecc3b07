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

With --dwarf, each argument is a user stack to unwind, as perf record
--call-graph dwarf writes it (REGS_USER with perf's x86_64 mask, an 8 KB
STACK_USER copy, exclude_callchain_user): the first offset is the
sampled IP, the others the return addresses of the frames above it.  The
frames are laid out as frame-pointer code saves them (%rbp points at the
saved %rbp, the return address above it, 32 bytes a frame), which is
where the CFI of -O0 -fno-omit-frame-pointer functions finds them past
their prologue; the last frame saves %rbp 0 and return address 0 (the
end of the chain).  In any chain, =ADDR (hex) is the absolute address
ADDR instead of an offset into DSO (=0, =1: a frame at address 0).
-k KADDR[,KADDR...] before the chains gives each sample these kernel
frames first (PERF_CONTEXT_KERNEL, then the addresses): a sample in the
kernel at the first one, the user registers those of the chain.

Usage: mk-perf-data.py OUT.data DSO [-g] OFFSET[,OFFSET...][@PID]...
       mk-perf-data.py OUT.data DSO --dwarf [-k KADDR[,KADDR...]] OFFSET[,OFFSET...][@PID]...
"""
import os
import struct
import sys

out, dso = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
chains = args[:1] == ['-g']
dwarf = args[:1] == ['--dwarf']
if chains or dwarf:
    args = args[1:]
kernel = []
if dwarf and args[:1] == ['-k']:
    kernel = [int(k, 16) for k in args[1].split(',')]
    args = args[2:]
base = 0x7f0000000000


def address(o):
    """=ADDR: that address; OFFSET: DSO's mapping + OFFSET"""
    return int(o[1:], 16) if o.startswith('=') else base + int(o, 16)


# OFFSET...@PID: a sample of another process (the same comm and mapping)
pids = [int(a.split('@')[1]) if '@' in a else 4242 for a in args]
addrs = [[address(o) for o in a.split('@')[0].split(',')] for a in args]
attr = bytearray(128)
flags = (1 << 8) | (1 << 9) | (1 << 18)		# mmap, comm, sample_id_all
sample_type = 0x127 if chains else 0x107	# IP, TID, TIME, PERIOD (, CALLCHAIN)
regs_mask = 0xff0fff		# perf's x86_64 PERF_REGS_MASK: all but DS, ES, FS, GS
stack_size = 8192
if dwarf:
    sample_type = 0x3127	# and CALLCHAIN, REGS_USER, STACK_USER
    flags |= 1 << 22		# exclude_callchain_user
struct.pack_into('<IIQQQQQ', attr, 0, 1, 128, 0, 4000, sample_type, 0, flags)
if dwarf:
    struct.pack_into('<QI', attr, 80, regs_mask, stack_size)
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


def user_stack(chain):
    """REGS_USER and STACK_USER of a sample at chain[0] called from chain[1:]"""
    sp = 0x7ffc00000000
    stack = bytearray(stack_size)
    rbp = sp + 16
    regs = {6: rbp, 7: sp, 8: chain[0]}		# PERF_REG_X86_BP, SP, IP
    for i, ret in enumerate(chain[1:] + [0]):
        up = rbp + 32 if i < len(chain) - 1 else 0
        struct.pack_into('<QQ', stack, rbp - sp, up, ret)
        rbp = up
    body = struct.pack('<Q', 2)			# PERF_SAMPLE_REGS_ABI_64
    body += b''.join(struct.pack('<Q', regs.get(r, 0)) for r in range(24)
                     if regs_mask >> r & 1)
    used = 16 + 32 * len(chain)
    return body + struct.pack('<Q', stack_size) + bytes(stack) + struct.pack('<Q', used)


for pid, chain in zip(pids, addrs):
    now[0] += 1
    ip, misc = (kernel[0], 1) if kernel else (chain[0], 2)	# cpumode kernel, user
    body = struct.pack('<QIIQQ', ip, pid, pid, now[0], 1)
    if chains:		# PERF_CONTEXT_USER, then the addresses
        body += struct.pack('<QQ', len(chain) + 1, 0xfffffffffffffe00)
        body += b''.join(struct.pack('<Q', a) for a in chain)
    if dwarf:		# the kernel's frames only: the user ones are unwound
        ctx = [0xffffffffffffff80] + kernel if kernel else []
        body += struct.pack('<Q', len(ctx)) + b''.join(struct.pack('<Q', a) for a in ctx)
        body += user_stack(chain)
    recs.append(record(9, misc, body))
data = b''.join(recs)
with open(out, 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, len(attrs), 104, len(attrs),
                                      104 + len(attrs), len(data), 0, 0))
    f.write(bytes(32) + attrs + data)
