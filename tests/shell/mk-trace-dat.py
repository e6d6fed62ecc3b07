#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic trace.dat (version 6) of function / function_graph
records, laid out as the kernel lays out its ring-buffer pages, with this
kernel's events/ftrace/{function,funcgraph_entry,funcgraph_exit}/format.

Usage: mk-trace-dat.py OUT.dat <SPEC     (TRACEFS overrides /sys/kernel/tracing)
       mk-trace-dat.py --latency TEXT OUT.dat <SPEC
                        (a latency file: the text of tracing/trace in place of
                         the CPU data, as trace-cmd record -p irqsoff saves it)

SPEC, one record a line (times in ns, functions by name):
  CPU TS PID entry FUNC DEPTH
  CPU TS PID exit FUNC DEPTH CALLTIME RETTIME
  CPU TS PID function FUNC PARENT
  CPU TS PID sched_switch PREV_COMM PREV_PID PREV_PRIO PREV_STATE NEXT_COMM NEXT_PID NEXT_PRIO
  CPU TS PID sched_wakeup COMM PID PRIO TARGET_CPU
  comm PID NAME          (a line of the saved cmdlines, in the order given)
  missed CPU COUNT       (the next page of CPU starts after COUNT lost events;
                          -1: lost, count unknown)
  buffer NAME            (the records after it go to instance buffer NAME, as
                          trace-cmd record -B NAME saves it: a BUFFER option
                          pointing at its own table of CPU data)
Functions get addresses ffffffff81000000 + 0x100 * n in kallsyms order.
sched records are laid out by this kernel's events/sched/NAME/format.
"""
import os
import struct
import sys

TFS = os.environ.get("TRACEFS", "/sys/kernel/tracing")
PAGE = 4096


def read(path):
    with open(path, "rb") as f:
        return f.read()


def event_id(name):
    for line in read(f"{TFS}/events/ftrace/{name}/format").decode().splitlines():
        if line.startswith("ID:"):
            return int(line.split()[1])
    raise SystemExit(f"no ID in {name}/format")


SCHED = {"sched_switch": ("prev_comm", "prev_pid", "prev_prio", "prev_state",
                          "next_comm", "next_pid", "next_prio"),
         "sched_wakeup": ("comm", "pid", "prio", "target_cpu")}


def sched_format(name):
    """The ID, the record size and {field: (offset, size)} of sched/NAME."""
    text = read(f"{TFS}/events/sched/{name}/format").decode()
    fields, eid, end = {}, None, 0
    for line in text.splitlines():
        if line.startswith("ID:"):
            eid = int(line.split()[1])
        if "field:" not in line:
            continue
        parts = dict(p.strip().split(":", 1) for p in line.split(";") if ":" in p)
        fname = parts["field"].split()[-1].split("[")[0]
        off, size = int(parts["offset"]), int(parts["size"])
        fields[fname] = (off, size)
        end = max(end, off + size)
    return eid, (end + 3) // 4 * 4, fields


def sched_record(name, pid, args):
    eid, size, fields = sched_format(name)
    rec = bytearray(size)
    struct.pack_into("<HBBi", rec, 0, eid, 0, 0, pid)
    for fname, val in zip(SCHED[name], args):
        off, fsize = fields[fname]
        if "comm" in fname:
            rec[off:off + fsize] = val.encode()[:fsize].ljust(fsize, b"\0")
        else:
            rec[off:off + fsize] = int(val).to_bytes(fsize, "little", signed=True)
    return bytes(rec)


def main():
    latency = None
    if sys.argv[1] == "--latency":
        latency = read(sys.argv[2])
        del sys.argv[1:3]
    out = sys.argv[1]
    ids = {n: event_id(n) for n in ("function", "funcgraph_entry", "funcgraph_exit")}
    funcs, comms, sched = {}, [], []
    buffers = [("", [])]        # (name, records); "" the top buffer
    recs = buffers[0][1]

    def addr(name):
        if name not in funcs:
            funcs[name] = 0xFFFFFFFF81000000 + 0x100 * len(funcs)
        return funcs[name]

    for line in sys.stdin:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "comm":
            comms.append((int(f[1]), f[2]))
            continue
        if f[0] == "buffer":
            buffers.append((f[1], []))
            recs = buffers[-1][1]
            continue
        if f[0] == "missed":
            recs.append((int(f[1]), None, int(f[2])))
            continue
        cpu, ts, pid, kind = int(f[0]), int(f[1]), int(f[2]), f[3]
        if kind in SCHED:
            if kind not in sched:
                sched.append(kind)
            recs.append((cpu, ts, sched_record(kind, pid, f[4:])))
            continue
        etype = {"entry": "funcgraph_entry", "exit": "funcgraph_exit"}.get(kind, kind)
        head = struct.pack("<HBBi", ids[etype], 0, 0, pid)
        if kind == "entry":
            body = struct.pack("<QI4x", addr(f[4]), int(f[5]))
        elif kind == "exit":
            body = struct.pack("<QIIQQ", addr(f[4]), int(f[5]), 0, int(f[6]), int(f[7]))
        else:
            body = struct.pack("<QQ", addr(f[4]), addr(f[5]))
        recs.append((cpu, ts, head + body))

    ncpus = max([r[0] for _, rs in buffers for r in rs] + [0]) + 1

    def cpu_pages(recs):
        pages = []

        def flush(page, first, missed):
            commit = len(page)
            if missed is not None:
                commit |= 1 << 31
                if missed >= 0:
                    commit |= 1 << 30
                    page += struct.pack("<Q", missed)
            return struct.pack("<QQ", first, commit) + page.ljust(PAGE - 16, b"\0")

        for cpu in range(ncpus):
            data, page, first, last, missed, lost = b"", b"", None, 0, None, None
            for c, ts, rec in [r for r in recs if r[0] == cpu]:
                if ts is None:
                    if page:
                        data += flush(page, first, missed)
                        page, first, missed = b"", None, None
                    lost = rec
                    continue
                ev = b""
                if first is not None and ts - last >= 1 << 27:
                    d = ts - last
                    ev += struct.pack("<II", 30 | (d & ((1 << 27) - 1)) << 5, d >> 27)
                    delta = 0
                else:
                    delta = 0 if first is None else ts - last
                ev += struct.pack("<I", len(rec) // 4 | delta << 5) + rec
                room = PAGE - 16 - (8 if missed is not None and missed >= 0 else 0)
                if len(page) + len(ev) > room:
                    data += flush(page, first, missed)
                    page, first, missed = b"", None, None
                    ev = struct.pack("<I", len(rec) // 4) + rec
                if first is None:
                    first, missed, lost = ts, lost, None
                page += ev
                last = ts
            if page:
                data += flush(page, first, missed)
            pages.append(data)

        return pages

    pages = cpu_pages(buffers[0][1])
    o = bytearray(b"\x17\x08\x44tracing6\0" + bytes([0, 8]) + struct.pack("<I", PAGE))
    for name in ("header_page", "header_event"):
        text = read(f"{TFS}/events/{name}")
        o += name.encode() + b"\0" + struct.pack("<Q", len(text)) + text
    o += struct.pack("<I", 3)
    for n in ("function", "funcgraph_entry", "funcgraph_exit"):
        text = read(f"{TFS}/events/ftrace/{n}/format")
        o += struct.pack("<Q", len(text)) + text
    o += struct.pack("<I", 1 if sched else 0)
    if sched:
        o += b"sched\0" + struct.pack("<I", len(sched))
        for n in sched:
            text = read(f"{TFS}/events/sched/{n}/format")
            o += struct.pack("<Q", len(text)) + text
    syms = "".join(f"{a:016x} T {n}\n" for n, a in sorted(funcs.items(), key=lambda x: x[1]))
    o += struct.pack("<I", len(syms)) + syms.encode()
    o += struct.pack("<I", 0)
    cmd = "".join(f"{p} {n}\n" for p, n in comms)
    o += struct.pack("<Q", len(cmd)) + cmd.encode()
    o += struct.pack("<I", ncpus)
    o += b"options  \0"
    patch = []          # where each instance's offset goes
    for name, _ in buffers[1:]:
        patch.append(len(o) + 6)
        o += struct.pack("<HIQ", 3, 8 + len(name) + 1, 0) + name.encode() + b"\0"
    o += struct.pack("<H", 0)
    if latency is not None:
        o += b"latency  \0" + latency
        with open(out, "wb") as f:
            f.write(o)
        return
    o += b"flyrecord\0"

    def put_cpus(o, pages):
        off = len(o) + 16 * ncpus
        off = (off + PAGE - 1) // PAGE * PAGE
        table = b""
        for d in pages:
            table += struct.pack("<QQ", off if d else 0, len(d))
            off += len(d)
        o += table
        o += b"\0" * ((PAGE - len(o) % PAGE) % PAGE)
        for d in pages:
            o += d

    put_cpus(o, pages)
    for (name, rs), at in zip(buffers[1:], patch):
        struct.pack_into("<Q", o, at, len(o))
        o += b"flyrecord\0"
        put_cpus(o, cpu_pages(rs))
    with open(out, "wb") as f:
        f.write(o)


main()
