#!/usr/bin/env python3
"""Applies one mutant of scripts/mutants/list.txt to a tree: exact text, found exactly as
often as the mutant says, so a mutant whose code has moved fails loudly instead of testing
nothing. Usage: apply.py LIST NAME TREE"""
import sys

def mutants(path):
    entry = None
    for line in open(path):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        if not line.startswith(' '):
            if entry:
                yield entry
            name, file, count = line.split('|')
            entry = {'name': name, 'file': file, 'count': int(count), 'old': None, 'new': None}
        else:
            key, _, text = line.strip().partition(' ')
            entry[key] = text.encode().decode('unicode_escape')
    if entry:
        yield entry

def main():
    listing, name, tree = sys.argv[1:4]
    for m in mutants(listing):
        if m['name'] != name:
            continue
        path = f"{tree}/{m['file']}"
        text = open(path).read()
        found = text.count(m['old'])
        if found != m['count']:
            sys.exit(f"mutant {name}: '{m['old']}' found {found} times in {m['file']}, expected {m['count']}")
        open(path, 'w').write(text.replace(m['old'], m['new']))
        return
    sys.exit(f"no mutant named {name}")

if __name__ == '__main__':
    main()
