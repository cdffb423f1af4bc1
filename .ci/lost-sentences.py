#!/usr/bin/env python3
"""Finds the sentences of an old version of some Markdown files that a rewrite no longer holds anywhere.

Usage: .ci/lost-sentences.py [-v] REV OLD.md[,OLD.md...] NEW.md [NEW.md ...]

OLD files are read at git revision REV, NEW files from the working tree (globs allowed, ** included). Both sides
are cut into units: sentences of prose (split after . ? ! before a capital letter, a backtick, a bracket, emphasis, a quote or a hyphen),
table cells, and the lines of code blocks; Markdown markup (links, emphasis, code ticks, bullets, heading marks)
and line breaks are dropped before comparing. An old unit is
  kept      when its text occurs in the new files as it is,
  reworded  when the closest new unit is at least 85 % alike (difflib's ratio), and
  lost      otherwise.
Prints the counts, each lost unit (and with -v each reworded one beside its closest match). Exit 0 when nothing
is lost, 1 otherwise. Python 3 standard library only; meant for moves of documentation ("nothing lost").
"""
import difflib
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
FENCE = re.compile(r'^\s*(```|~~~)')
SPLIT = re.compile(r'(?<=[.?!])\s+(?=[A-Z`(\[*"-])')
ALIKE = 0.85
SHORTEST = 25


def plain(text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = text.replace('**', '').replace('`', '')
    return re.sub(r'\s+', ' ', text).strip()


def units(markdown):
    out, paragraph, fenced = [], [], False

    def flush():
        if paragraph:
            out.extend(plain(u) for u in SPLIT.split(' '.join(paragraph)))
            paragraph.clear()

    for line in markdown.split('\n'):
        if FENCE.match(line):
            flush()
            fenced = not fenced
            continue
        if fenced:
            out.append(plain(line))
            continue
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith('|'):
            flush()
            if not re.fullmatch(r'[|\s:-]+', stripped):
                for cell in re.split(r'(?<!\\)\|', stripped.strip('|')):
                    out.extend(plain(u) for u in SPLIT.split(cell))
        elif re.match(r'#{1,6}\s', stripped):
            flush()
            out.append(plain(stripped.lstrip('#')))
        else:
            if re.match(r'([-*]|\d+\.)\s', stripped):
                flush()
                stripped = re.sub(r'^([-*]|\d+\.)\s+', '', stripped)
            paragraph.append(stripped)
    flush()
    return [u for u in out if len(u) >= SHORTEST]


def main(args):
    verbose = bool(args) and args[0] == '-v'
    if verbose:
        args = args[1:]
    if len(args) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rev, olds, news = args[0], args[1].split(','), args[2:]
    old_units = []
    for old in olds:
        text = subprocess.run(['git', '-C', ROOT, 'show', '%s:%s' % (rev, old)], check=True,
                              capture_output=True, text=True).stdout
        old_units.extend((old, u) for u in units(text))
    new_files = []
    for pattern in news:
        new_files.extend(sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)))
    new_units = []
    for path in new_files:
        with open(path, encoding='utf-8') as f:
            new_units.extend(units(f.read()))
    corpus = '\n'.join(new_units)
    flat = re.sub(r'\s+', ' ', plain(corpus))
    kept, reworded, lost = 0, [], []
    for source, unit in old_units:
        if unit in corpus or unit in flat:
            kept += 1
            continue
        best, match = 0.0, ''
        for candidate in new_units:
            m = difflib.SequenceMatcher(None, unit, candidate, autojunk=False)
            if m.real_quick_ratio() > best and m.quick_ratio() > best:
                r = m.ratio()
                if r > best:
                    best, match = r, candidate
        (reworded if best >= ALIKE else lost).append((source, unit, best, match))
    print('%d units of %s at %s against %d new files: %d kept, %d reworded, %d lost'
          % (len(old_units), ', '.join(olds), rev, len(new_files), kept, len(reworded), len(lost)))
    if verbose:
        for source, unit, best, match in reworded:
            print('REWORDED (%.2f) %s: %s\n    now: %s' % (best, source, unit, match))
    for source, unit, best, match in lost:
        print('LOST (closest %.2f) %s: %s\n    closest: %s' % (best, source, unit, match))
    return 1 if lost else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
