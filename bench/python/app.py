# SPDX-License-Identifier: GPL-2.0
# bench/python/app.py: a Python program with a known chain, part of it
# called back from C: <module> -> main -> outer -> middle -> sorted (C)
# -> key -> leaf.  tools/python_test profiles it and checks that the
# samples taken in it show this chain, in order, with files and lines.
import sys
import time


def leaf(x):
    s = 0
    for i in range(60):
        s += i * x
    return s


def key(x):
    return leaf(x) & 0xff


def middle(data):
    return sorted(data, key=key)


def outer(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        middle(list(range(200)))
        n += 1
    return n


def main():
    print("rounds", outer(float(sys.argv[1])))


main()
