#!/usr/bin/env python3
"""Checks that every relative link and anchor in the project's documentation resolves.

Usage: .ci/check-links.py [FILE.md ...]   (from anywhere; without arguments, the default set below)

Checked: inline links and images, [text](target) and ![alt](target), and reference definitions, [id]: target,
outside fenced code blocks and code spans. A relative target must name a file or directory inside the repository
(a link that leaves it, such as ../shared/..., fails: readers of a clone do not have it), and its #anchor, when the
target is a Markdown file (or the same file), must be one of that file's headings as GitHub slugs them, or an
explicit <a id>/<a name>. External links (http:, https:, mailto:) are not fetched.

Exit 0 when every link resolves, 1 naming each broken one (file:line, the target, why), 2 on bad usage.
Python 3 standard library only.
"""
import glob
import os
import re
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
DEFAULT = ['README.md', 'docs/*.md', 'bench/README.md', 'bench/results/README.md', 'bench/results/*/HISTORY.md',
           'kafka/README.md', '*/src/main/java/**/FORMAT*.md']

FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(.+?)\1')
INLINE = re.compile(r'!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)')
REFERENCE = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*(\S+)')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
EXTERNAL = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line.rstrip('\n')


def slug(heading):
    """GitHub's anchor for a heading: inline markup dropped, lower case, punctuation removed, spaces to hyphens."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)
    text = re.sub(r'<[^>]+>', '', text).replace('`', '').lower()
    kept = []
    for c in text:
        category = unicodedata.category(c)
        if c in ' -_' or category[0] in 'LNM':
            kept.append(c)
    return ''.join(kept).replace(' ', '-')


ANCHORS = {}


def anchors(path):
    if path not in ANCHORS:
        found, seen = set(), {}
        for _, line in prose_lines(path):
            heading = HEADING.match(line)
            if heading:
                base = slug(heading.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else '%s-%d' % (base, n))
            found.update(HTML_ANCHOR.findall(line))
        ANCHORS[path] = found
    return ANCHORS[path]


def targets(path):
    for number, line in prose_lines(path):
        bare = CODE_SPAN.sub(lambda m: 'x' * len(m.group(0)), line)
        reference = REFERENCE.match(bare)
        if reference:
            yield number, reference.group(1)
        for link in INLINE.finditer(bare):
            yield number, link.group(2).strip('<>')


def problem(source, target):
    """None when target resolves from source, else why not."""
    if EXTERNAL.match(target):
        return None
    where, _, anchor = target.partition('#')
    where = unquote(where)
    if where:
        resolved = os.path.realpath(os.path.join(os.path.dirname(source), where))
        if resolved != ROOT and not resolved.startswith(ROOT + os.sep):
            return 'outside the repository (%s)' % os.path.relpath(resolved, ROOT)
        if not os.path.exists(resolved):
            return 'no such file'
    else:
        resolved = source
    if anchor and resolved.endswith('.md') and os.path.isfile(resolved):
        if unquote(anchor) not in anchors(resolved):
            return 'no heading #%s in %s' % (anchor, os.path.relpath(resolved, ROOT))
    return None


def main(args):
    if any(a.startswith('-') for a in args):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    patterns = args or DEFAULT
    files = []
    for pattern in patterns:
        matched = sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)) if not os.path.isabs(pattern) \
            else [pattern]
        matched = [m for m in matched if os.sep + 'target' + os.sep not in m]
        if not matched:
            print('check-links: nothing matches %s' % pattern, file=sys.stderr)
            return 2
        files.extend(m for m in matched if m not in files)
    broken, count = [], 0
    for path in files:
        for number, target in targets(path):
            count += 1
            why = problem(os.path.realpath(path), target)
            if why:
                broken.append('%s:%d: broken link %s: %s' % (os.path.relpath(path, ROOT), number, target, why))
    for line in broken:
        print(line)
    if broken:
        print('check-links: %d of %d links in %d files do not resolve' % (len(broken), count, len(files)))
        return 1
    print('check-links: %d links in %d files resolve' % (count, len(files)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
