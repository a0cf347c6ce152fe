# SPDX-License-Identifier: GPL-2.0
# bench/python/cost.py: the workload of bench/python/cost-guest (make
# bench): app.py's chain (<module> -> main -> outer -> middle -> sorted (C)
# -> key -> leaf) on short lists, so that its work, the rounds it prints,
# counts in steps of about 1/4000 of a second's: a cost per sample is read
# from the work a profiler takes away.
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
    data = list(range(8))
    while time.monotonic() < end:
        middle(data)
        n += 1
    return n


def main():
    print("rounds", outer(float(sys.argv[1])))


main()
