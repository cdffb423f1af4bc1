#!/usr/bin/env python3
"""RedisBloom 2.4.23's flow tests (tests/flow/test_overall.py and test_cuckoo.py), ported in ddf's own words.

Each case below checks what the RedisBloom test of the same name checks, as RedisBloom 2.4.23 answers it (the port is
run against the real module too, where it is installed: RedisBloomFlowIT). Not ported, because they need what ddf
does not serve (listed in docs/from-redisbloom.md, "Filters come along"):
  - Redis strings: test_validation's `SET foo bar` then BF.RESERVE on it, test_card's BF.CARD on a string key;
  - RDB files (DEBUG RELOAD, RESTORE payloads): test_rdb_reload, test_mem_usage (both files), test_num_deletes,
    the RDB corruption tests;
  - MEMORY USAGE of RedisBloom's own allocations (test_mem_usage: 1104 and 1112 bytes).

Usage: redisbloom_flow.py PORT [--layout redisbloom|ddf] [NAME ...]   (protocol 2, as the originals; exit 0 when every
case passed). Prints PASS/FAIL per case and a closing "N passed, N failed" line.

--layout says how the server lays out the Bloom filters BF.RESERVE makes: redisbloom (the default: RedisBloom itself,
or ddf under serve --scaling-layout redisbloom) is checked bit for bit as RedisBloom answers. ddf (ddf's default: its
own chain of blocked layers, hashed with XXH3) makes the same chain of layers (capacities, error rates, expansion,
NONSCALING, the errors) from layers of its own bytes and hash functions, so where a case checks RedisBloom's
geometry or hash it checks what stays true of any layout instead (docs/from-redisbloom.md lists them):
  - BF.DEBUG (test_insert, test_debug): the same layers, capacities, error rates and hash width; each layer's bytes
    whole 64-byte blocks, bits = 8 x bytes; every layer but the newest full, the sizes summing to the first line;
  - BF.INFO's Size (test_info, test_nonscaling_err, test_issue178): RedisBloom's formula (32 + 64 per layer + the
    layers' bytes) over the bytes BF.DEBUG reports;
  - exact layer counts after adds (test_expansion): the least number of layers whose capacities hold the items
    inserted (which false positives, falling where the hash puts them, decide);
  - SCANDUMP's header (test_scandump_invalid_header): ddf's header (magic, seed, then RedisBloom's header, then the
    blocked layers' geometry) corrupted at the same fields of the RedisBloom header inside it, and in its geometry.
"""
import os
import random
import sys
import traceback

import redis
from redis.exceptions import ResponseError

PORT = int(sys.argv[1])
ARGS = sys.argv[2:]
LAYOUT = "redisbloom"
if ARGS[:1] == ["--layout"]:
    LAYOUT = ARGS[1]
    ARGS = ARGS[2:]
if LAYOUT not in ("redisbloom", "ddf"):
    sys.exit(f"unknown layout {LAYOUT}")
EXACT = LAYOUT == "redisbloom"
ONLY = set(ARGS)
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def connect(decode=True):
    return redis.Redis(host="127.0.0.1", port=PORT, protocol=2, decode_responses=decode, socket_timeout=120)


def refused(r, *args, text=None):
    try:
        reply = r.execute_command(*args)
    except ResponseError as error:
        if text is not None and str(error) != text:
            raise AssertionError(f"{args}: refused with '{error}', expected '{text}'")
        return str(error)
    raise AssertionError(f"{args}: expected an error, got {reply!r}")


def eq(expected, actual, what=""):
    if expected != actual:
        raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")


def ok(reply, what=""):
    if reply not in (True, "OK", b"OK"):
        raise AssertionError(f"{what}: expected OK, got {reply!r}")


def info_map(reply):
    def text(value):
        return value.decode() if isinstance(value, bytes) else value
    return {text(reply[i]): reply[i + 1] for i in range(0, len(reply), 2)}


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def layer_fields(line):
    return dict(field.split(":", 1) for field in text(line).split(" "))


def debug_eq(expected, actual, what="BF.DEBUG"):
    """RedisBloom's BF.DEBUG lines under its layout; under ddf's, the facts any layout keeps (module comment)."""
    if EXACT:
        eq(expected, actual, what)
        return
    actual = [text(line) for line in actual]
    eq(len(expected), len(actual), f"{what}: layers in {actual}")
    total = 0
    for i, (want, got) in enumerate(zip(expected[1:], actual[1:])):
        want, got = layer_fields(want), layer_fields(got)
        for name in ("hashwidth", "capacity", "ratio"):
            eq(want[name], got[name], f"{what}: layer {i} {name}")
        layer_bytes, size, capacity = int(got["bytes"]), int(got["size"]), int(got["capacity"])
        if layer_bytes <= 0 or layer_bytes % 64 or int(got["bits"]) != 8 * layer_bytes or not 1 <= int(got["hashes"]) <= 20:
            raise AssertionError(f"{what}: layer {i} is not a blocked layer: {got}")
        if size > capacity or (i < len(expected) - 2 and size != capacity):
            raise AssertionError(f"{what}: layer {i} holds {size} of {capacity} items, not the newest")
        total += size
    eq(f"size:{total}", actual[0], f"{what}: the layers' sizes summed")


def debug_size(r, key):
    """RedisBloom's BF.INFO Size formula over the layers' bytes as BF.DEBUG reports them."""
    layers = r.execute_command("BF.DEBUG", key)[1:]
    return 32 + 64 * len(layers) + sum(int(layer_fields(line)["bytes"]) for line in layers)


def size_eq(expected, r, key, actual):
    eq(expected if EXACT else debug_size(r, key), actual, f"BF.INFO {key} Size")


# ---------------------------------------------------------------- test_overall.py, class testRedisBloom


@case
def test_custom_filter(r):
    ok(r.execute_command("BF.RESERVE", "test", "0.05", "1000"), "reserve")
    eq([1, 1, 1], r.execute_command("BF.MADD", "test", "foo", "bar", "baz"))
    eq(1, r.execute_command("BF.EXISTS", "test", "foo"))
    eq(0, r.execute_command("BF.EXISTS", "test", "nonexist"))
    refused(r, "BF.RESERVE", "test", "0.01")


@case
def test_set(r):
    eq(1, r.execute_command("BF.ADD", "test", "foo"))
    eq(1, r.execute_command("BF.EXISTS", "test", "foo"))
    eq(0, r.execute_command("BF.EXISTS", "test", "bar"))
    eq([0, 1], r.execute_command("BF.MADD", "test", "foo", "bar"))
    eq(1, r.execute_command("BF.EXISTS", "test", "bar"))


@case
def test_multi(r):
    eq([1, 1, 1], r.execute_command("BF.MADD", "test", "foo", "bar", "baz"))
    eq([0, 1, 0], r.execute_command("BF.MADD", "test", "foo", "new1", "bar"))
    eq([0], r.execute_command("BF.MEXISTS", "test", "nonexist"))
    eq([0, 1], r.execute_command("BF.MEXISTS", "test", "nonexist", "foo"))


@case
def test_validation(r):
    for args in ((), ("foo",), ("foo", "0.001"), ("foo", "0.001", "blah"), ("foo", "0", "0"), ("foo", "0", "100"),
                 ("foo", "blah", "1000"), ("foo", "7.7", "1000")):
        refused(r, "BF.RESERVE", *args)
    ok(r.execute_command("BF.RESERVE", "test", "0.01", "1000"))
    for args in ((), ("test",)):
        for command in ("BF.ADD", "BF.MADD", "BF.EXISTS", "BF.MEXISTS"):
            refused(r, command, *args)
    for command in ("BF.EXISTS", "BF.ADD"):
        refused(r, command, "test", 1, 2)


@case
def test_oom(r):
    refused(r, "BF.RESERVE", "test", 0.01, 4294967296 * 4294967296)


@case
def test_dump_and_load_arguments(r):
    r.execute_command("BF.RESERVE", "myBloom", 0.001, 1000 * 1024 * 8)
    refused(r, "BF.SCANDUMP", "myBloom")
    refused(r, "BF.SCANDUMP", "myBloom", "str")
    refused(r, "BF.SCANDUMP", "myCuckoo", 0)
    refused(r, "BF.LOADCHUNK", "myBloom")
    refused(r, "BF.LOADCHUNK", "myBloom", "str", "data")


@case
def test_missing(r):
    eq(0, r.execute_command("BF.EXISTS", "myBloom", "foo"))
    eq([0, 0, 0], r.execute_command("BF.MEXISTS", "myBloom", "foo", "bar", "baz"))


@case
def test_insert(r):
    refused(r, "BF.INSERT", "missingFilter", "NOCREATE", "ITEMS", "foo", "bar")
    refused(r, "BF.INSERT", "missingFilter", "DONTEXIST", "NOCREATE")
    refused(r, "BF.INSERT", "missingFilter")
    refused(r, "BF.INSERT", "missingFilter", "NOCREATE", "ITEMS")
    refused(r, "BF.INSERT", "missingFilter", "NOCREATE", "CAPACITY")
    refused(r, "BF.INSERT", "missingFilter", "CAPACITY", 0.3)
    refused(r, "BF.INSERT", "missingFilter", "ERROR")
    refused(r, "BF.INSERT", "missingFilter", "ERROR", "big")
    refused(r, "BF.INSERT", "missingFilter", "EXPANSION", "0", "ITEMS", "foo")
    refused(r, "BF.INSERT", "missingFilter", "EXPANSION", "big")
    eq([1], r.execute_command("BF.INSERT", "missingFilter", "ERROR", "0.001", "CAPACITY", "50000", "EXPANSION", 2,
                              "ITEMS", "foo"))
    debug_eq(["size:1", "bytes:98880 bits:791040 hashes:11 hashwidth:64 capacity:50000 size:1 ratio:0.0005"],
             r.execute_command("BF.DEBUG", "missingFilter"))
    eq([0, 1, 1], r.execute_command("BF.INSERT", "missingFilter", "ERROR", "0.1", "ITEMS", "foo", "bar", "baz"))
    debug_eq(["size:3", "bytes:98880 bits:791040 hashes:11 hashwidth:64 capacity:50000 size:3 ratio:0.0005"],
             r.execute_command("BF.DEBUG", "missingFilter"))


@case
def test_debug_errors(r):
    ok(r.execute_command("BF.RESERVE", "bf", "0.05", "1000"))
    eq([1, 1, 1], r.execute_command("BF.MADD", "bf", "foo", "bar", "baz"))
    refused(r, "BF.DEBUG", "bf", "noexist")
    refused(r, "BF.DEBUG", "cf")


@case
def test_expansion(r):
    for name, expansion in (("exp1", 1), ("exp2", 2), ("exp4", 4)):
        ok(r.execute_command("BF.RESERVE", name, 0.01, 4, "EXPANSION", expansion))
    for i in range(100):
        for name in ("exp1", "exp2", "exp4"):
            r.execute_command("BF.ADD", name, str(i))
    for i in range(100):
        for name in ("exp1", "exp2", "exp4"):
            eq(1, r.execute_command("BF.EXISTS", name, str(i)), f"{name} {i}")
    for name, expansion, filters in (("exp1", 1, 23), ("exp2", 2, 5), ("exp4", 4, 4)):
        info = r.execute_command("BF.INFO", name)
        if EXACT:
            eq(filters, info[5], f"{name} filters")
            continue
        items, layers, capacity = info[7], 0, 0
        while capacity < items:
            capacity += 4 * expansion ** layers
            layers += 1
        if not 90 <= items <= 100:
            raise AssertionError(f"{name}: {items} of 100 items inserted")
        eq(layers, info[5], f"{name} filters for {items} items")
    refused(r, "BF.RESERVE", "exp4", 0.01, 4, "EXPANSION")
    refused(r, "BF.RESERVE", "exp4", 0.01, 4, "EXPANSION", 0)
    refused(r, "BF.RESERVE", "exp4", 0.01, 4, "EXPANSION", "str")


@case
def test_debug(r):
    ok(r.execute_command("BF.RESERVE", "bf", "0.01", "10"))
    for i in range(100):
        r.execute_command("BF.ADD", "bf", str(i))
    debug_eq(["size:99",
        "bytes:16 bits:128 hashes:8 hashwidth:64 capacity:10 size:10 ratio:0.005",
        "bytes:32 bits:256 hashes:9 hashwidth:64 capacity:20 size:20 ratio:0.0025",
        "bytes:72 bits:576 hashes:10 hashwidth:64 capacity:40 size:40 ratio:0.00125",
        "bytes:160 bits:1280 hashes:11 hashwidth:64 capacity:80 size:29 ratio:0.000625"],
       r.execute_command("BF.DEBUG", "bf"))
    r.delete("bf")
    ok(r.execute_command("BF.RESERVE", "bf", "0.001", "100"))
    for i in range(4000):
        r.execute_command("BF.ADD", "bf", str(i))
    debug_eq(["size:3997",
        "bytes:200 bits:1600 hashes:11 hashwidth:64 capacity:100 size:100 ratio:0.0005",
        "bytes:432 bits:3456 hashes:12 hashwidth:64 capacity:200 size:200 ratio:0.00025",
        "bytes:936 bits:7488 hashes:13 hashwidth:64 capacity:400 size:400 ratio:0.000125",
        "bytes:2016 bits:16128 hashes:14 hashwidth:64 capacity:800 size:800 ratio:6.25e-05",
        "bytes:4320 bits:34560 hashes:15 hashwidth:64 capacity:1600 size:1600 ratio:3.125e-05",
        "bytes:9216 bits:73728 hashes:16 hashwidth:64 capacity:3200 size:897 ratio:1.5625e-05"],
       r.execute_command("BF.DEBUG", "bf"))


@case
def test_info(r):
    ok(r.execute_command("BF.RESERVE", "bf", "0.001", "100"))
    size = 296 if EXACT else debug_size(r, "bf")
    eq(["Capacity", 100, "Size", size, "Number of filters", 1, "Number of items inserted", 0, "Expansion rate", 2],
       r.execute_command("BF.INFO", "bf"))
    refused(r, "BF.INFO", "cf")
    refused(r, "BF.INFO")
    eq([100], r.execute_command("BF.INFO", "bf", "capacity"))
    eq([size], r.execute_command("BF.INFO", "bf", "size"))
    eq([1], r.execute_command("BF.INFO", "bf", "filters"))
    eq([0], r.execute_command("BF.INFO", "bf", "items"))
    eq([2], r.execute_command("BF.INFO", "bf", "expansion"))
    refused(r, "BF.INFO", "bf", "capacity", "size")
    refused(r, "BF.INFO", "bf", "wrong_value")


@case
def test_card(r):
    eq(0, r.execute_command("BF.CARD", "not_exist"))
    ok(r.execute_command("BF.RESERVE", "bf", "0.001", "100"))
    eq(0, r.execute_command("BF.CARD", "bf"))
    eq(1, r.execute_command("BF.ADD", "bf", "foo"))
    eq(1, r.execute_command("BF.CARD", "bf"))
    refused(r, "BF.CARD")


@case
def test_no_1_error_rate(r):
    refused(r, "BF.RESERVE", "bf", 1, 1000)


@case
def test_error_rate(r):
    repeat = 1024
    for rate in (0.1, 0.01, 0.001, 0.0001):
        name = f"bf{rate}"
        r.execute_command("BF.RESERVE", name, rate, repeat)
        pipe = r.pipeline(transaction=False)
        for x in range(repeat):
            pipe.execute_command("BF.ADD", name, x)
        pipe.execute()
        pipe = r.pipeline(transaction=False)
        for x in range(repeat, repeat * 11):
            pipe.execute_command("BF.EXISTS", name, x)
        false_positives = sum(pipe.execute())
        if false_positives / (repeat * 10) > rate:
            raise AssertionError(f"{rate}: measured {false_positives / (repeat * 10)}")


@case
def test_no_scaling(r):
    ok(r.execute_command("BF.RESERVE", "bf", 0.01, 3, "NONSCALING"))
    for i in range(3):
        eq(1, r.execute_command("BF.ADD", "bf", i))
    refused(r, "BF.ADD", "bf", "extra", text="non scaling filter is full")
    refused(r, "BF.RESERVE", "bf_mix", 0.01, 1000, "NONSCALING", "EXPANSION", 2,
            text="Nonscaling filters cannot expand")
    ok(r.execute_command("BF.RESERVE", "bfnonscale", 0.001, 1000, "NONSCALING"))
    ok(r.execute_command("BF.RESERVE", "bfscale", 0.001, 1000))
    if not r.execute_command("BF.INFO", "bfnonscale")[3] < r.execute_command("BF.INFO", "bfscale")[3]:
        raise AssertionError("a non-scaling filter is not smaller than a scaling one")


@case
def test_nonscaling_err(r):
    eq([1, 1, 1], r.execute_command("BF.INSERT", "nonscaling_err", "CAPACITY", 3, "NONSCALING", "ITEMS", "a", "b",
                                    "c"))
    reply = r.execute_command("BF.INSERT", "nonscaling_err", "ITEMS", "a", "b", "c", "d", "d")
    eq([0, 0, 0], reply[:3])
    eq("non scaling filter is full", str(reply[3]))
    eq(4, len(reply), "the insertion stops at the first refusal")
    eq(["Capacity", 3, "Size", 104 if EXACT else debug_size(r, "nonscaling_err"), "Number of filters", 1, "Number of items inserted", 3, "Expansion rate", None],
       r.execute_command("BF.INFO", "nonscaling_err"))


@case
def test_issue178(r):
    ok(r.execute_command("BF.RESERVE", "bf", 0.000001, 300 * 1000 * 1000))
    info = info_map(r.execute_command("BF.INFO", "bf"))
    eq(300000000, info["Capacity"])
    size_eq(1132420232, r, "bf", info["Size"])


@case
def test_very_high_error_rate(r):
    for name, error, capacity in (("bf1", 0.99, 3), ("bf2", 0.95, 8), ("bf3", 0.9999999999999999, 100)):
        ok(r.execute_command("BF.RESERVE", name, error, capacity, "NONSCALING"))
        eq(1, r.execute_command("BF.ADD", name, 1))


# ---------------------------------------------------------------- test_overall.py, class testRedisBloomNoCodec


def dump(r, command, key):
    chunks = []
    while True:
        position = chunks[-1][0] if chunks else 0
        chunk = r.execute_command(command, key, position)
        if not chunk[0]:
            return chunks
        chunks.append(chunk)


def round_trip(r, family, key, items, target=None):
    chunks = dump(r, family + ".SCANDUMP", key)
    r.delete(key)
    refused(r, family + ".LOADCHUNK", key)
    refused(r, family + ".LOADCHUNK", key, "str")
    for position, data in chunks:
        r.execute_command(family + ".LOADCHUNK", target or key, position, data)
    for item in items:
        eq(1, r.execute_command(family + ".EXISTS", target or key, item), f"{item} after the load")


@case
def test_scandump(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 500 // 8)
    items = [str(x) for x in range(500)]
    for item in items:
        r.execute_command("BF.ADD", "bf", item)
    refused(r, "BF.SCANDUMP", "bf")
    refused(r, "BF.SCANDUMP", "bf", "str")
    refused(r, "BF.SCANDUMP", "noexist", "0")
    round_trip(r, "BF", "bf", items)


@case
def test_scandump_with_expansion(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 500 // 8, "expansion", "2")
    items = [str(x) for x in range(500)]
    for item in items:
        r.execute_command("BF.ADD", "bf", item)
    round_trip(r, "BF", "bf", items)


@case
def test_scandump_huge(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 1024 * 1024 * 64)
    for _ in range(6):
        r.execute_command("BF.ADD", "bf", "foo")
    round_trip(r, "BF", "bf", ["foo"])


@case
def test_scandump_with_content(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 1024 * 1024 * 64)
    items = ["foo" + str(x) for x in range(1000)]
    for item in items:
        r.execute_command("BF.ADD", "bf", item)
    round_trip(r, "BF", "bf", items, target="bf2")


@case
def test_scandump_invalid(r):
    r.execute_command("BF.RESERVE", "bf", 0.1, 4)
    refused(r, "BF.LOADCHUNK", "bf", "-9223372036854775808", "1")
    refused(r, "BF.LOADCHUNK", "bf", "922337203685477588", "1")
    refused(r, "BF.LOADCHUNK", "bf", "4", "kdoasdksaodsadsadsadsadsadadsadadsdad")
    refused(r, "BF.LOADCHUNK", "bf", "4", "abcd")
    r.execute_command("BF.ADD", "bf", "x")
    r.execute_command("BF.ADD", "bf", "y")


@case
def test_scandump_invalid_header(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 5)
    for x in range(50):
        r.execute_command("BF.ADD", "bf", "foo" + str(x))
    header = r.execute_command("BF.SCANDUMP", "bf", 0)[1]
    r.delete("bf")
    # RedisBloom's header: a layer's fields (72), the options (12), the size (0); in ddf's, 16 bytes in (after its
    # magic and seed), plus its magic and a layer's blocks (the first geometry word)
    shift = 0 if EXACT else 16
    corrupts = [(72 + shift, 8, 0), (12 + shift, 4, 255), (0 + shift, 4, 255)]
    if not EXACT:
        corrupts += [(0, 4, 255), (len(header) - 16, 8, 0), (len(header) - 16, 8, 255)]
    for corrupt in corrupts:
        data = bytearray(header)
        for i in range(corrupt[1]):
            data[corrupt[0] + i] = corrupt[2]
        refused(r, "BF.LOADCHUNK", "bf", 1, bytes(data), text="received bad data")
    data = bytearray(header)
    for i in range(8):
        data[36 + shift + i] = 255
        data[shift + i] = 255
    refused(r, "BF.LOADCHUNK", "bf", 1, bytes(data), text="received bad data")
    eq(0, r.exists("bf"), "a refused header makes no key")


@case
def test_scandump_scan_small(r):
    r.execute_command("BF.RESERVE", "bf", 0.1, 50)
    for i in range(1500):
        r.execute_command("BF.ADD", "bf", "x" + str(i))
    size = info_map(r.execute_command("BF.INFO", "bf"))["Size"]
    pipe = r.pipeline(transaction=False)
    for i in range(size + 1024):
        pipe.execute_command("BF.SCANDUMP", "bf", i)
    pipe.execute()


@case
def test_scandump_load_small(r):
    r.execute_command("BF.RESERVE", "bf", 0.01, 10)
    for i in range(10):
        r.execute_command("BF.INSERT", "bf", "ITEMS", *["x" + str(i) + str(j) for j in range(1000)])
    size = info_map(r.execute_command("BF.INFO", "bf"))["Size"]
    rng = random.Random(22)
    for _ in range(100):
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 4096)))
        try:
            r.execute_command("BF.LOADCHUNK", "bf", rng.randint(0, size * 2), data)
        except ResponseError as error:
            if str(error) not in ("invalid offset - no link found", "invalid chunk - Too big for current filter",
                                  "received bad data"):
                raise


# ---------------------------------------------------------------- test_cuckoo.py, class testCuckoo


@case
def test_count(r):
    refused(r, "CF.RESERVE", "cf")
    refused(r, "CF.RESERVE", "cf", "str")
    r.execute_command("CF.RESERVE", "cf", "1000")
    refused(r, "CF.RESERVE", "cf", "1000")
    refused(r, "CF.RESERVE", "tooSmall", "1")
    for command in ("CF.INSERT", "CF.INSERTNX"):
        refused(r, command, "cf", "CAPACITY", "-1", "ITEMS", "k0")
        refused(r, command, "cf", "CAPACITY", "3", "ITEMS", "k0")
    eq(0, r.execute_command("CF.EXISTS", "cf", "k1"))
    eq(1, r.execute_command("CF.ADD", "cf", "k1"))
    eq(1, r.execute_command("CF.ADD", "cf", "k1"))
    eq(1, r.execute_command("CF.EXISTS", "cf", "k1"))
    eq(2, r.execute_command("CF.COUNT", "cf", "k1"))
    eq(1, r.execute_command("CF.DEL", "cf", "k1"))
    eq(1, r.execute_command("CF.COUNT", "cf", "k1"))
    eq(1, r.execute_command("CF.DEL", "cf", "k1"))
    eq(0, r.execute_command("CF.COUNT", "cf", "k1"))
    eq(0, r.execute_command("CF.DEL", "cf", "k1"))
    refused(r, "CF.DEL", "cf")
    refused(r, "CF.DEL", "bf", "k1", text="Not found")
    for x in range(100):
        r.execute_command("CF.ADD", "nums", str(x))
    for x in range(100):
        eq(1, r.execute_command("CF.EXISTS", "nums", str(x)))


@case
def test_setnx(r):
    eq(1, r.execute_command("CF.ADDNX", "cf", "k1"))
    eq(0, r.execute_command("CF.ADDNX", "cf", "k1"))
    eq(1, r.execute_command("CF.COUNT", "cf", "k1"))
    eq(1, r.execute_command("CF.ADD", "cf", "k1"))
    eq(2, r.execute_command("CF.COUNT", "cf", "k1"))


@case
def test_cf_insert(r):
    eq(1, r.execute_command("CF.ADD", "f1", "foo"))
    refused(r, "CF.ADD", "f1")
    eq([1], r.execute_command("CF.INSERT", "f2", "ITEMS", "foo"))
    refused(r, "CF.INSERT", "cf")
    d1 = r.execute_command("CF.DEBUG", "f1")
    d2 = r.execute_command("CF.DEBUG", "f2")
    refused(r, "CF.DEBUG")
    refused(r, "CF.DEBUG", "noexist")
    eq(True, bool(d1))
    eq(d1, d2)
    eq([0], r.execute_command("CF.INSERTNX", "f1", "items", "foo"))
    eq([1], r.execute_command("CF.INSERT", "f3", "CAPACITY", "10000", "ITEMS", "foo"))
    refused(r, "CF.INSERT", "f3", "NOCREATE", "CAPACITY")
    refused(r, "CF.INSERT", "f3", "NOCREATE", "CAPACITY", "str")
    refused(r, "CF.INSERT", "f3", "NOCREATE", "DONTEXIST")
    refused(r, "CF.INSERT", "f3", "NOCREATE", "ITEMS")
    d3 = r.execute_command("CF.DEBUG", "f3")
    eq("bktsize:2 buckets:8192 items:1 deletes:0 filters:1 max_iterations:20 expansion:1", d3)
    eq([0, 1, 1], r.execute_command("CF.INSERTNX", "f3", "ITEMS", "foo", "bar", "baz"))
    refused(r, "CF.INSERT", "f4", "nocreate", "items", "foo")
    r.execute_command("CF.INSERT", "f4", "items", "foo")
    r.execute_command("CF.INSERT", "f4", "nocreate", "items", "foo")


@case
def test_exists(r):
    eq([1, 1, 1], r.execute_command("CF.INSERT", "f1", "ITEMS", "foo", "bar", "baz"))
    eq([1, 1, 1], r.execute_command("CF.MEXISTS", "f1", "foo", "bar", "baz"))
    eq(0, r.execute_command("CF.EXISTS", "nonexist-key", "blah"))
    eq([0], r.execute_command("CF.MEXISTS", "nonexist-key", "blah"))
    refused(r, "CF.MEXISTS", "key")
    refused(r, "CF.MEXISTS")
    refused(r, "CF.EXISTS", "key")
    refused(r, "CF.EXISTS")


@case
def test_max_iterations(r):
    r.execute_command("CF.RESERVE", "a", 10, "MAXITERATIONS", 10)
    eq("bktsize:2 buckets:8 items:0 deletes:0 filters:1 max_iterations:10 expansion:1",
       r.execute_command("CF.DEBUG", "a"))
    r.execute_command("CF.RESERVE", "b", 10)
    eq("bktsize:2 buckets:8 items:0 deletes:0 filters:1 max_iterations:20 expansion:1",
       r.execute_command("CF.DEBUG", "b"))
    refused(r, "CF.RESERVE", "a", 10, "MAXITERATIONS", "string")


@case
def test_compact(r):
    r.execute_command("CF.RESERVE", "cf", 8, "MAXITERATIONS", 50)
    for x in range(100):
        r.execute_command("CF.ADD", "cf", str(x))
    for x in range(100):
        eq(1, r.execute_command("CF.EXISTS", "cf", str(x)))
    before = r.execute_command("CF.DEBUG", "cf")[49:52]
    if not before >= "130":
        raise AssertionError(f"CF.DEBUG before compaction: {before}")
    ok(r.execute_command("CF.COMPACT", "cf"))
    after = r.execute_command("CF.DEBUG", "cf")[49:52]
    if not before >= after:
        raise AssertionError(f"no reduction: {before} then {after}")
    refused(r, "CF.COMPACT", "a", text="Cuckoo filter was not found")
    refused(r, "CF.COMPACT", "a", "b")


@case
def test_max_expansions(r):
    r.execute_command("CF.RESERVE", "cf", "4")
    for i in range(124):
        eq(1, r.execute_command("CF.ADD", "cf", str(i)), f"item {i}")
    with_errors = 0
    for i in range(124, 140):
        try:
            r.execute_command("CF.ADD", "cf", str(i))
        except ResponseError as error:
            eq("Maximum expansions reached", str(error))
            with_errors += 1
    if with_errors == 0:
        raise AssertionError("never 'Maximum expansions reached'")


@case
def test_bucket_size(r):
    r.execute_command("CF.RESERVE", "a", 64, "BUCKETSIZE", 1)
    r.execute_command("CF.RESERVE", "b", 64, "BUCKETSIZE", 2)
    r.execute_command("CF.RESERVE", "c", 256, "BUCKETSIZE", 4, "MAXITERATIONS", 500)
    for i in range(1000):
        for name in "abc":
            r.execute_command("CF.ADD", name, str(i))
    for i in range(1000):
        for name in "abc":
            eq(1, r.execute_command("CF.EXISTS", name, str(i)))
    eq("bktsize:1 buckets:64 items:1000 deletes:0 filters:18 max_iterations:20 expansion:1",
       r.execute_command("CF.DEBUG", "a"))
    eq("bktsize:2 buckets:32 items:1000 deletes:0 filters:17 max_iterations:20 expansion:1",
       r.execute_command("CF.DEBUG", "b"))
    eq("bktsize:4 buckets:64 items:1000 deletes:0 filters:4 max_iterations:500 expansion:1",
       r.execute_command("CF.DEBUG", "c"))
    refused(r, "CF.RESERVE", "err", 10, "BUCKETSIZE")
    refused(r, "CF.RESERVE", "err", 10, "BUCKETSIZE", "string")


@case
def test_cf_expansion(r):
    r.execute_command("CF.RESERVE", "a", 64, "EXPANSION", 1)
    r.execute_command("CF.RESERVE", "b", 64, "EXPANSION", 2)
    r.execute_command("CF.RESERVE", "c", 64, "EXPANSION", 4, "MAXITERATIONS", 500)
    for i in range(1000):
        for name in "abc":
            r.execute_command("CF.ADD", name, str(i))
    for i in range(1000):
        for name in "abc":
            eq(1, r.execute_command("CF.EXISTS", name, str(i)))
    eq("bktsize:2 buckets:32 items:1000 deletes:0 filters:17 max_iterations:20 expansion:1",
       r.execute_command("CF.DEBUG", "a"))
    eq("bktsize:2 buckets:32 items:1000 deletes:0 filters:5 max_iterations:20 expansion:2",
       r.execute_command("CF.DEBUG", "b"))
    eq("bktsize:2 buckets:32 items:1000 deletes:0 filters:3 max_iterations:500 expansion:4",
       r.execute_command("CF.DEBUG", "c"))
    refused(r, "CF.RESERVE", "err", 10, "EXPANSION")
    refused(r, "CF.RESERVE", "err", 10, "EXPANSION", "string")


@case
def test_expansion_0(r):
    r.execute_command("CF.RESERVE", "a", 4, "EXPANSION", 0)
    for i in range(1, 5):
        eq(1, r.execute_command("CF.ADD", "a", i))
    eq([-1, -1], r.execute_command("CF.INSERT", "a", "ITEMS", 5, 6))
    refused(r, "CF.ADD", "a", 7, text="Filter is full")


@case
def test_cf_info(r):
    r.execute_command("CF.RESERVE", "a", 1000)
    eq(["Size", 1080, "Number of buckets", 512, "Number of filters", 1, "Number of items inserted", 0,
        "Number of items deleted", 0, "Bucket size", 2, "Expansion rate", 1, "Max iterations", 20],
       r.execute_command("CF.INFO", "a"))
    refused(r, "CF.INFO", "bf")
    refused(r, "CF.INFO")


@case
def test_params(r):
    refused(r, "CF.RESERVE")
    refused(r, "CF.RESERVE", "err")
    refused(r, "CF.RESERVE", "err", 10, "EXPANSION", -1)
    refused(r, "CF.RESERVE", "err", 10, "BUCKETSIZE", 0)
    refused(r, "CF.RESERVE", "err", 10, "BUCKETSIZE", -1)
    refused(r, "CF.RESERVE", "err", 10, "MAXITERATIONS", 0)
    refused(r, "CF.RESERVE", "err", 10, "MAXITERATIONS", -1)
    r.execute_command("CF.RESERVE", "err", 1000)
    for args in (("CF.ADD",), ("CF.ADD", "err"), ("CF.ADDNX",), ("CF.ADDNX", "err"), ("CF.INSERT",),
                 ("CF.INSERT", "err"), ("CF.INSERT", "err", "element"), ("CF.INSERTNX",), ("CF.INSERTNX", "err"),
                 ("CF.INSERTNX", "err", "element"), ("CF.DEL",), ("CF.DEL", "err"), ("CF.EXISTS",),
                 ("CF.EXISTS", "err"), ("CF.MEXISTS",), ("CF.MEXISTS", "err"), ("CF.COUNT",), ("CF.COUNT", "err"),
                 ("CF.INFO",), ("CF.LOADCHUNK", "err"), ("CF.LOADCHUNK", "err", "iterator"), ("CF.SCANDUMP", "err")):
        refused(r, *args)


@case
def test_cf_bounds(r):
    refused(r, "CF.RESERVE", "e", 10, "MAXITERATIONS", 65536,
            text="MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.")
    refused(r, "CF.RESERVE", "e", 10, "BUCKETSIZE", 256,
            text="BUCKETSIZE: value must be an integer between 1 and 255, inclusive.")
    refused(r, "CF.RESERVE", "e", 10, "EXPANSION", 32769,
            text="EXPANSION: value must be an integer between 0 and 32768, inclusive.")
    refused(r, "CF.RESERVE", "e", -1, text="Capacity must be at least (BucketSize * 2)")
    refused(r, "CF.COMPACT", "e", text="Cuckoo filter was not found")


# ---------------------------------------------------------------- test_cuckoo.py, class testCuckooNoCodec


@case
def test_cf_scandump(r):
    r.execute_command("CF.RESERVE", "cf", 500 // 8)
    eq([0, None], r.execute_command("CF.SCANDUMP", "cf", "0"))
    items = [str(x) for x in range(500)]
    for item in items:
        r.execute_command("CF.ADD", "cf", item)
    refused(r, "CF.SCANDUMP", "cf")
    refused(r, "CF.SCANDUMP", "cf", "str")
    refused(r, "CF.SCANDUMP", "noexist", "0")
    round_trip(r, "CF", "cf", items)


@case
def test_cf_scandump_with_expansion(r):
    r.execute_command("CF.RESERVE", "cf", 500 // 8, "expansion", "2")
    eq([0, None], r.execute_command("CF.SCANDUMP", "cf", "0"))
    items = [str(x) for x in range(500)]
    for item in items:
        r.execute_command("CF.ADD", "cf", item)
    round_trip(r, "CF", "cf", items)


@case
def test_cf_scandump_huge(r):
    r.execute_command("CF.RESERVE", "cf", 1024 * 1024 * 64)
    eq([0, None], r.execute_command("CF.SCANDUMP", "cf", "0"))
    for _ in range(6):
        r.execute_command("CF.ADD", "cf", "foo")
    round_trip(r, "CF", "cf", ["foo"])


@case
def test_cf_scandump_invalid(r):
    r.execute_command("CF.RESERVE", "cf", 4)
    refused(r, "CF.LOADCHUNK", "cf", "-9223372036854775808", "1")
    refused(r, "CF.LOADCHUNK", "cf", "922337203685477588", "1")
    refused(r, "CF.LOADCHUNK", "cf", "4", "kdoasdksaodsadsadsadsadsadadsadadsdad")
    refused(r, "CF.LOADCHUNK", "cf", "4", "abcd")
    r.execute_command("CF.ADD", "cf", "x")
    refused(r, "CF.SCANDUMP", "cf", "-1")


def main():
    passed = failed = 0
    for fn in CASES:
        if ONLY and fn.__name__ not in ONLY:
            continue
        binary = fn.__name__.startswith(("test_scandump", "test_cf_scandump"))
        r = connect(decode=not binary)
        try:
            r.flushall()
            fn(r)
            print(f"PASS {fn.__name__}")
            passed += 1
        except Exception as error:  # noqa: BLE001 -- every failure is reported and counted
            print(f"FAIL {fn.__name__}: {error}")
            traceback.print_exc(limit=3, file=sys.stdout)
            failed += 1
        finally:
            r.close()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
