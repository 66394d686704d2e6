#!/usr/bin/env python3
"""tests/psi-model/minimize.py MODEL TRACE OUT: greedily drop events (and
zero clock steps) while the replay still fails with the same kind of
failure; how the traces of traces/ were made."""
import subprocess, sys, tempfile, os, re
model, trace, out = sys.argv[1:4]
evs = [l for l in open(trace) if l.strip() and not l.startswith('#')]

def kind(msg):
    m = re.search(r': (read of|mark:|kick:|WARN_ON_ONCE|SIGSEGV|g\d+ cpu|t\d+ psi_flags|printk)', msg)
    return m.group(1) if m else None

def run(ev):
    with tempfile.NamedTemporaryFile('w', delete=False) as f:
        f.writelines(ev); name = f.name
    r = subprocess.run(['nice', '-n', '19', model, '-t', name], capture_output=True, text=True)
    os.unlink(name)
    return r.stdout if r.returncode == 1 else None

first = run(evs)
assert first, 'trace does not fail'
want = kind(first)
print('failure kind:', want, '|', first.strip()[:200])
def fails(ev):
    o = run(ev)
    return o is not None and kind(o) == want
n = len(evs); chunk = max(1, n // 2)
while chunk >= 1:
    i = 0
    while i < len(evs):
        cand = evs[:i] + evs[i+chunk:]
        if cand and fails(cand):
            evs = cand
        else:
            i += chunk
    chunk //= 2
# simplify clock steps
for i in range(len(evs)):
    parts = evs[i].split()
    for j in (-2, -1):
        if parts[j] != '0':
            for v in ('0', '1000'):
                p2 = parts[:]; p2[j] = v
                cand = evs[:i] + [' '.join(p2) + '\n'] + evs[i+1:]
                if fails(cand):
                    evs = cand; parts = p2; break
open(out, 'w').writelines(evs)
print('minimized to %d events -> %s' % (len(evs), out))
print(run(evs).strip())
