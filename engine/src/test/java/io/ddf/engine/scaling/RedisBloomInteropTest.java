package io.ddf.engine.scaling;

import io.ddf.engine.redisbloom.BloomChainHeader;
import io.ddf.engine.redisbloom.CuckooHeader;
import io.ddf.persistence.testing.TestSeed;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ddf's RedisBloom layouts against RedisBloom 2.4.23 itself (skipped, with a message, where the module or
 * redis-server is absent): the same commands give the same answers and the same dump bytes, header and data, and
 * filters move from RedisBloom to ddf and back answering alike.
 */
class RedisBloomInteropTest
{
    private static RealRedisBloom redis;
    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        redis = RealRedisBloom.startOrSkip();
    }

    @AfterAll
    static void stop() throws Exception
    {
        if (redis != null)
        {
            redis.close();
        }
    }

    private static byte[] item(final String prefix, final long n)
    {
        return (prefix + n).getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> randomItems(final SplittableRandom random, final int count)
    {
        final List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final byte[] bytes = new byte[1 + random.nextInt(24)];
            for (int b = 0; b < bytes.length; b++)
            {
                bytes[b] = (byte)random.nextInt(256);
            }
            items.add(bytes);
        }
        return items;
    }

    private static long replyOf(final AddResult result)
    {
        return switch (result)
        {
            case ADDED, NOT_GROWN -> 1;
            case EXISTS -> 0;
            case FULL -> -2;
        };
    }

    private long redisAdd(final String command, final String key, final byte[] item)
    {
        try
        {
            return redis.number(command, key, item);
        }
        catch (final JedisDataException full)
        {
            assertEquals("ERR non scaling filter is full", full.getMessage());
            return -2;
        }
    }

    private void assertSameDump(final String command, final String key, final byte[] header,
        final java.util.function.LongFunction<DumpChunk> ours)
    {
        final List<Object[]> theirs = redis.scandump(command, key);
        assertArrayEquals((byte[])theirs.get(0)[1], header, key + ": header chunk");
        long iter = 1;
        for (int i = 1; i < theirs.size(); i++)
        {
            final DumpChunk chunk = ours.apply(iter);
            assertEquals((Long)theirs.get(i)[0], chunk.next(), key + ": iterator of chunk " + i);
            assertArrayEquals((byte[])theirs.get(i)[1], chunk.data(), key + ": bytes of chunk " + i);
            iter = chunk.next();
        }
        assertEquals(null, ours.apply(iter), key + ": ddf's dump has more chunks than RedisBloom's");
    }

    @Test
    void bloomAnswersAndBytesMatchRedisBloom()
    {
        final SplittableRandom random = TestSeed.splittable();
        final Object[][] shapes = {
            {0.01, 100L, 2, false, 1_000}, {0.001, 1_000L, 4, false, 9_000}, {0.1, 50L, 1, false, 400},
            {0.2, 64L, 2, true, 100}, {0.000001, 300L, 3, false, 2_000}, {0.5, 10L, 2, false, 300},
        };
        int n = 0;
        for (final Object[] shape : shapes)
        {
            final String key = "bloom" + n++;
            final double error = (double)shape[0];
            final long capacity = (long)shape[1];
            final int expansion = (int)shape[2];
            final boolean nonScaling = (boolean)shape[3];
            if (nonScaling)
            {
                redis.call("BF.RESERVE", key, error, capacity, "NONSCALING");
            }
            else
            {
                redis.call("BF.RESERVE", key, error, capacity, "EXPANSION", expansion);
            }
            try (BloomChain chain = BloomChain.redisBloom(dir.resolve(key), capacity, error, nonScaling,
                expansion))
            {
                for (final byte[] item : randomItems(random, (int)shape[4]))
                {
                    assertEquals(redisAdd("BF.ADD", key, item), replyOf(chain.add(item)), key + ": BF.ADD");
                }
                assertSameDump("BF.SCANDUMP", key, chain.header().encode(), chain::dump);
                assertEquals(redis.call("BF.DEBUG", key).toString().length() > 0, true);
                final List<String> theirs = new ArrayList<>();
                for (final Object line : (List<?>)redis.call("BF.DEBUG", key))
                {
                    theirs.add(redis.text(line));
                }
                assertEquals(theirs, chain.debug(), key + ": BF.DEBUG");
            }
        }
    }

    @Test
    void cuckooAnswersAndBytesMatchRedisBloom()
    {
        final SplittableRandom random = TestSeed.splittable();
        final int[][] shapes = {{100, 2, 20, 1, 1_000}, {64, 4, 5, 2, 2_000}, {10, 1, 3, 0, 60}, {200, 3, 50, 4, 5_000}};
        int n = 0;
        for (final int[] shape : shapes)
        {
            final String key = "cuckoo" + n++;
            redis.call("CF.RESERVE", key, shape[0], "BUCKETSIZE", shape[1], "MAXITERATIONS", shape[2], "EXPANSION",
                shape[3]);
            try (RedisCuckoo cuckoo = RedisCuckoo.create(dir.resolve(key), shape[0], shape[1], shape[2], shape[3]))
            {
                final List<byte[]> items = randomItems(random, shape[4] / 4);
                for (int op = 0; op < shape[4]; op++)
                {
                    final byte[] item = items.get(random.nextInt(items.size()));
                    final long hash = RedisCuckoo.hash(item);
                    final int kind = random.nextInt(10);
                    if (kind < 6)
                    {
                        final boolean nx = kind == 0;
                        long theirs;
                        try
                        {
                            theirs = redis.number(nx ? "CF.ADDNX" : "CF.ADD", key, item);
                        }
                        catch (final JedisDataException ex)
                        {
                            theirs = ex.getMessage().contains("Filter is full") ? -1 : -9;
                        }
                        final RedisCuckoo.InsertResult result = cuckoo.insert(hash, nx);
                        assertEquals(theirs, result == RedisCuckoo.InsertResult.INSERTED ? 1 :
                            result == RedisCuckoo.InsertResult.EXISTS ? 0 : -1, key + ": CF.ADD at op " + op);
                    }
                    else if (kind < 8)
                    {
                        assertEquals(redis.number("CF.DEL", key, item), cuckoo.delete(hash) ? 1L : 0L,
                            key + ": CF.DEL at op " + op);
                    }
                    else if (kind < 9)
                    {
                        assertEquals(redis.number("CF.COUNT", key, item), cuckoo.count(hash), key + ": CF.COUNT");
                    }
                    else
                    {
                        assertEquals(redis.number("CF.EXISTS", key, item), cuckoo.contains(hash) ? 1L : 0L,
                            key + ": CF.EXISTS");
                    }
                }
                assertEquals(redis.text(redis.call("CF.DEBUG", key)), cuckoo.debug(), key + ": CF.DEBUG");
                if (cuckoo.header().items() > 0)
                {
                    assertSameDump("CF.SCANDUMP", key, cuckoo.header().encode(), cuckoo::dump);
                }
                redis.call("CF.COMPACT", key);
                cuckoo.compact(true);
                assertEquals(redis.text(redis.call("CF.DEBUG", key)), cuckoo.debug(), key + ": CF.DEBUG compacted");
                if (cuckoo.header().items() > 0)
                {
                    assertSameDump("CF.SCANDUMP", key, cuckoo.header().encode(), cuckoo::dump);
                }
            }
        }
    }

    /** Records the golden dumps {@link ScalingGoldenFileTest} reads (run with -Dddf.golden.write=true). */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "ddf.golden.write", matches = "true")
    void recordGoldenDumps() throws java.io.IOException
    {
        redis.call("BF.RESERVE", GoldenDumps.BLOOM, 0.01, 100);
        redis.call("BF.RESERVE", GoldenDumps.BLOOM_NONSCALING, 0.05, 1000, "NONSCALING");
        redis.call("CF.RESERVE", GoldenDumps.CUCKOO, 100, "BUCKETSIZE", 4, "EXPANSION", 2);
        for (int i = 0; i < 700; i++)
        {
            redis.call("BF.ADD", GoldenDumps.BLOOM, GoldenDumps.item("g", i));
            redis.call("BF.ADD", GoldenDumps.BLOOM_NONSCALING, GoldenDumps.item("g", i));
            redis.call("CF.ADD", GoldenDumps.CUCKOO, GoldenDumps.item("g", i));
        }
        for (int i = 0; i < 700; i += 5)
        {
            redis.call("CF.DEL", GoldenDumps.CUCKOO, GoldenDumps.item("g", i));
        }
        for (final String name : new String[] {GoldenDumps.BLOOM, GoldenDumps.BLOOM_NONSCALING, GoldenDumps.CUCKOO})
        {
            final boolean cuckoo = name.equals(GoldenDumps.CUCKOO);
            GoldenDumps.writeChunks(GoldenDumps.DIR.resolve(name + ".chunks"),
                redis.scandump(cuckoo ? "CF.SCANDUMP" : "BF.SCANDUMP", name));
            final StringBuilder answers = new StringBuilder();
            for (final byte[] probe : GoldenDumps.probes())
            {
                answers.append(redis.number(cuckoo ? "CF.EXISTS" : "BF.EXISTS", name, probe));
            }
            java.nio.file.Files.writeString(GoldenDumps.DIR.resolve(name + ".answers"), answers + "\n");
        }
    }

    @Test
    void filtersMoveFromRedisBloomToDdfAndBack()
    {
        moveBloom("scaling", 150_000, false);
        moveBloom("nonscaling", 100_000, true);
        moveCuckoo();
    }

    private void moveBloom(final String key, final int members, final boolean nonScaling)
    {
        if (nonScaling)
        {
            redis.call("BF.RESERVE", key, 0.01, members, "NONSCALING");
        }
        else
        {
            redis.call("BF.RESERVE", key, 0.01, 10_000);
        }
        addAll("BF.MADD", key, "m", 0, members);
        final List<Object[]> chunks = redis.scandump("BF.SCANDUMP", key);
        try (BloomChain moved = BloomChain.fromRedisBloomHeader(dir.resolve(key),
            BloomChainHeader.decode((byte[])chunks.get(0)[1])))
        {
            for (int i = 1; i < chunks.size(); i++)
            {
                final byte[] data = (byte[])chunks.get(i)[1];
                moved.load((Long)chunks.get(i)[0], new UnsafeBuffer(data), 0, data.length);
            }
            assertSameAnswers("BF.MEXISTS", key, members, item -> moved.contains(item));
            final String back = key + "-back";
            redis.call("BF.LOADCHUNK", back, 1, moved.header().encode());
            for (long iter = 1; ; )
            {
                final DumpChunk chunk = moved.dump(iter);
                if (chunk == null)
                {
                    break;
                }
                redis.call("BF.LOADCHUNK", back, chunk.next(), chunk.data());
                iter = chunk.next();
            }
            assertSameAnswers("BF.MEXISTS", back, members, item -> moved.contains(item));
            for (int i = 0; i < 20_000; i++)
            {
                final byte[] item = item("later", i);
                assertEquals(redisAdd("BF.ADD", key, item), replyOf(moved.add(item)), key + ": a later BF.ADD");
            }
        }
    }

    private void moveCuckoo()
    {
        final String key = "cf-moved";
        redis.call("CF.RESERVE", key, 20_000, "EXPANSION", 2);
        addAll("CF.INSERT", key, "m", 0, 50_000);
        for (int i = 0; i < 50_000; i += 7)
        {
            redis.call("CF.DEL", key, item("m", i));
        }
        final List<Object[]> chunks = redis.scandump("CF.SCANDUMP", key);
        try (RedisCuckoo moved = RedisCuckoo.fromHeader(dir.resolve(key), CuckooHeader.decode((byte[])chunks.get(0)[1])))
        {
            for (int i = 1; i < chunks.size(); i++)
            {
                final byte[] data = (byte[])chunks.get(i)[1];
                moved.load((Long)chunks.get(i)[0], new UnsafeBuffer(data), 0, data.length);
            }
            assertSameAnswers("CF.MEXISTS", key, 50_000, item -> moved.contains(RedisCuckoo.hash(item)));
            final String back = key + "-back";
            redis.call("CF.LOADCHUNK", back, 1, moved.header().encode());
            for (long pos = 1; ; )
            {
                final DumpChunk chunk = moved.dump(pos);
                if (chunk == null)
                {
                    break;
                }
                redis.call("CF.LOADCHUNK", back, chunk.next(), chunk.data());
                pos = chunk.next();
            }
            assertSameAnswers("CF.MEXISTS", back, 50_000, item -> moved.contains(RedisCuckoo.hash(item)));
            for (int i = 0; i < 5_000; i++)
            {
                final byte[] item = item("later", i);
                assertEquals(redis.number("CF.ADD", key, item), moved.insert(RedisCuckoo.hash(item), false) ==
                    RedisCuckoo.InsertResult.INSERTED ? 1L : 0L, "a later CF.ADD");
            }
            assertEquals(redis.text(redis.call("CF.DEBUG", key)), moved.debug());
        }
    }

    private static void addAll(final String command, final String key, final String prefix, final int from,
        final int to)
    {
        for (int start = from; start < to; start += 1000)
        {
            final List<Object> args = new ArrayList<>();
            args.add(key);
            if (command.equals("CF.INSERT"))
            {
                args.add("ITEMS");
            }
            for (int i = start; i < Math.min(to, start + 1000); i++)
            {
                args.add(item(prefix, i));
            }
            redis.call(command, args.toArray());
        }
    }

    private static void assertSameAnswers(final String command, final String key, final int members,
        final java.util.function.Predicate<byte[]> ours)
    {
        int positives = 0;
        for (final String prefix : new String[] {"m", "absent"})
        {
            final int count = prefix.equals("m") ? members : 200_000;
            for (int start = 0; start < count; start += 1000)
            {
                final List<Object> args = new ArrayList<>();
                args.add(key);
                final List<byte[]> batch = new ArrayList<>();
                for (int i = start; i < Math.min(count, start + 1000); i++)
                {
                    batch.add(item(prefix, i));
                }
                args.addAll(batch);
                final List<Long> theirs = redis.numbers(command, args.toArray());
                for (int i = 0; i < batch.size(); i++)
                {
                    final boolean answer = ours.test(batch.get(i));
                    positives += answer ? 1 : 0;
                    assertEquals(theirs.get(i) == 1, answer, key + ": " + command + " of " + prefix + (start + i));
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(positives > 0, key + ": nothing answered present");
    }
}
