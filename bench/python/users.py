# SPDX-License-Identifier: GPL-2.0
# bench/python/users.py: the ways people run Python, each with a known
# chain (tools/python_test, bench/python/users.awk):
#   threads SECONDS  two threads, each its own chain (spin_a, spin_b)
#   gen SECONDS      a generator: work <- produce (generator) <- consume
#   sleep SECONDS    a function blocked in time.sleep (for --off-cpu)
#   async SECONDS    coroutines on asyncio's loop: crunch <- handler
#                    (awaited) <- serve (a task's coroutine)
#   spin SECONDS     one chain on CPU (for record -p and record -a)
import sys
import threading
import time
try:
    import asyncio		# not in python3.x-minimal: only "async" needs it
except ImportError:
    asyncio = None


def spin(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for i in range(300):
            n += i
    return n


def spin_a(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for i in range(300):
            n += i
    return n


def spin_b(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for i in range(300):
            n -= i
    return n


def worker_a(seconds):
    return spin_a(seconds)


def worker_b(seconds):
    return spin_b(seconds)


def threads(seconds):
    ts = [threading.Thread(target=worker_a, args=(seconds,)),
          threading.Thread(target=worker_b, args=(seconds,))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def work(i):
    s = 0
    for j in range(60):
        s += i * j
    return s


def produce(n):
    for i in range(n):
        yield work(i)


def consume(seconds):
    end = time.monotonic() + seconds
    total = 0
    while time.monotonic() < end:
        for v in produce(100):
            total += v
    return total


def crunch():
    s = 0
    for i in range(300):
        s += i
    return s


async def handler(end):
    n = 0
    while time.monotonic() < end:
        crunch()
        n += 1
        if n % 50 == 0:
            await asyncio.sleep(0)
    return n


async def serve(seconds):
    return await handler(time.monotonic() + seconds)


def coroutines(seconds):
    return asyncio.run(serve(seconds))


def sleeper():
    time.sleep(0.004)


def napper(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sleeper()


def main():
    mode, seconds = sys.argv[1], float(sys.argv[2])
    {"threads": threads, "gen": consume, "async": coroutines, "sleep": napper,
     "spin": spin}[mode](seconds)


main()
