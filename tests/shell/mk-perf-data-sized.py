#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a perf.data whose declared sizes ask for far more memory than the
file holds, from BASE, a small file-mode perf.data that mk-perf-data.py
wrote (the header, one attr without ids, then the records):

  auxtrace SIZE [HELD]
                  an AUXTRACE record after the records, HELD bytes (0 by
                  default) of its SIZE-byte payload (which follows the
                  record) present; the whole payload: the records again
  tracing SIZE    a HEADER_TRACING_DATA record declaring a SIZE-byte payload,
                  8 bytes of it present
  ids N           the attr N times, every copy naming one section of ids
                  as large as the rest of the file
  zstd SIZE       a COMPRESSED record: a zstd frame of RLE blocks (4 bytes
                  each) that expands to SIZE zero bytes
  zstd2 SIZE      the same frame in a COMPRESSED2 record (perf >= 6.16): a
                  u64 data_size, the frame, zeros up to a multiple of 8

--pipe writes the result in pipe mode (a HEADER_ATTR record, then the
records), as perf record -o - does.

Usage: mk-perf-data-sized.py BASE OUT [--pipe] KIND SIZE [HELD]
"""
import struct
import sys

base, out = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
pipe = args[:1] == ['--pipe']
if pipe:
    args = args[1:]
kind, size = args[0], int(args[1], 0)
held = int(args[2], 0) if len(args) > 2 else 0

b = open(base, 'rb').read()
attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQ', b, 24)
attr = b[attrs_off:attrs_off + 128]
records = b[data_off:data_off + data_size]


def record(rtype, body, misc=0):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


if kind == 'auxtrace':	# size, offset, reference, idx, tid, cpu, reserved
    again = records
    records += record(71, struct.pack('<QQQIIII', size, 0, 0, 0, 4242, 0, 0)) + bytes(held)
    if held == size:
        records += again
elif kind == 'tracing':
    records += record(66, struct.pack('<II', size, 0)) + b'tracing\0'
elif kind in ('zstd', 'zstd2'):
    block = 128 << 10
    frame = struct.pack('<IBB', 0xFD2FB528, 0, 0x38)	# no content size, 128 KiB window
    left = size
    while left:
        n = min(left, block)
        left -= n
        frame += struct.pack('<I', n << 3 | 1 << 1 | (0 if left else 1))[:3] + b'\0'
    if kind == 'zstd':
        records += record(81, frame)
    else:
        pad = -len(frame) % 8
        records += record(83, struct.pack('<Q', len(frame)) + frame + bytes(pad))
elif kind != 'ids':
    sys.exit('unknown kind ' + kind)

if pipe:
    data = record(64, attr) + records	# HEADER_ATTR, no ids
    open(out, 'wb').write(struct.pack('<QQ', 0x32454c4946524550, 16) + data)
    sys.exit(0)

nr = size if kind == 'ids' else 1
attrs_off = 104
data_off = attrs_off + nr * 144
ids_off = data_off + len(records)
ids_size = (ids_off + 8) & ~7 if kind == 'ids' else 0
entry = attr + struct.pack('<QQ', ids_off if ids_size else 0, ids_size)
with open(out, 'wb') as f:
    f.write(struct.pack('<QQQQQQQ', 0x32454c4946524550, 104, 144, attrs_off, nr * 144,
                        data_off, len(records)) + bytes(48))
    f.write(entry * nr + records + bytes(ids_size))
