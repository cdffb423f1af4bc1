package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.store.KeyNames;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filters that grow on the request path, in the suites' execution mode (both, by the build): their commands'
 * replies take their place in a connection's order beside those of ddf's fixed-size filters, in pipelined batches and
 * in MULTI/EXEC; RESP3 gets RedisBloom 2.6's booleans and maps; they are made off the event loop and counted against
 * {@code --max-filters}; a creation that fails says why; a full NONSCALING chain ends a BF.MADD's array with
 * RedisBloom's error; they survive a restart.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScalingCommandsTest
{
    @TempDir
    Path dir;

    private TestServer start(final Consumer<ServerConfig> configure)
    {
        return new TestServer(dir.resolve("data"), configure);
    }

    /**
     * LOADCHUNK of a chunk that is no dump answers as RedisBloom 2.4.23 does (checked against redis-server with its
     * module), whatever its size up to Redis's bulk limit, and the connection goes on: random bytes at the header's
     * iterator are "ERR received bad data" (BF) and "Invalid header" (CF), elsewhere "ERR received bad data" and
     * "Couldn't load chunk!"; a cuckoo header of the right length whose bucket count is zeroed is "Couldn't create
     * filter!". A chunk past 16 MiB once closed the connection instead.
     */
    @Test
    void aChunkThatIsNoDumpIsAnsweredAsRedisBloomDoes() throws IOException
    {
        final long seed = TestSeed.seed();
        final java.util.Random random = new java.util.Random(seed);
        try (TestServer server = start(c -> { }); RespClient c = server.client().binary())
        {
            assertEquals("OK", c.call("BF.RESERVE", "bf-loaded", "0.01", "1000"));
            assertEquals("OK", c.call("CF.RESERVE", "cf-loaded", "1000"));
            for (final int size : new int[] {1024, 20 << 20})
            {
                final byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                final String chunk = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
                final String at = "seed " + seed + ", " + size + " bytes";
                assertEquals("-ERR received bad data", c.call("BF.LOADCHUNK", "bf-new", "1", chunk), at);
                assertEquals("-Invalid header", c.call("CF.LOADCHUNK", "cf-new", "1", chunk), at);
                assertEquals("-ERR received bad data", c.call("BF.LOADCHUNK", "bf-loaded", "2", chunk), at);
                assertEquals("-Couldn't load chunk!", c.call("CF.LOADCHUNK", "cf-loaded", "2", chunk), at);
                assertEquals("PONG", c.call("PING"), at);
            }
            assertEquals(0L, c.call("EXISTS", "bf-new", "cf-new"));
            assertEquals(1L, c.call("CF.ADD", "cf-source", "a"));
            final String header = ((List<?>)c.call("CF.SCANDUMP", "cf-source", "0")).get(1).toString();
            // RedisBloom's header: items, buckets, deletes, filters (8 bytes each), then the 2-byte fields
            assertEquals("OK", c.call("CF.LOADCHUNK", "cf-items-zeroed", "1", "\0".repeat(8) + header.substring(8)));
            assertEquals("-Couldn't create filter!",
                c.call("CF.LOADCHUNK", "cf-buckets-zeroed", "1", "\0".repeat(16) + header.substring(16)));
            assertEquals(0L, c.call("EXISTS", "cf-buckets-zeroed"));
        }
    }

    /**
     * The item limit on the filters that grow (the default): CF.INSERT and CF.INSERTNX once skipped it there, as
     * their RedisBloom handler was registered without the check the other item commands go through.
     */
    @Test
    void everyItemCommandRefusesAnItemOverTheLimit() throws IOException
    {
        try (TestServer server = start(c -> { }))
        {
            ItemLimits.everyItemCommandRefusesAnItemOverTheLimit(server);
        }
    }

    /**
     * One pipelined stream of commands on a fixed-size filter and on chains (made on first use by the stream itself)
     * is answered in order, each reply what the command's own filter says: a repeat is 0, a new item 1 (at an error
     * rate of 10^-6 a false positive among these items would be a one-in-a-thousand event for the seed).
     */
    @Test
    void pipelinedCommandsOnBothStoresAnswerInOrder() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (TestServer server = start(c -> c.defaultErrorRate = 0.000001); RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "fixed", "0.000001", "100000", "KIND", "fifo-bloom"));
            assertEquals("OK", c.call("BF.RESERVE", "grows", "0.000001", "50"));
            final Map<String, Set<String>> added = Map.of("fixed", new HashSet<>(), "grows", new HashSet<>(),
                "made", new HashSet<>());
            final List<String> keys = List.of("fixed", "grows", "made");
            final List<Object> expected = new ArrayList<>();
            for (int i = 0; i < 3000; i++)
            {
                final String key = keys.get(random.nextInt(keys.size()));
                final String item = "i" + random.nextInt(2000);
                switch (random.nextInt(4))
                {
                    case 0 ->
                    {
                        c.send("BF.ADD", key, item);
                        expected.add(added.get(key).add(item) ? 1L : 0L);
                    }
                    case 1 ->
                    {
                        final String other = "i" + random.nextInt(2000);
                        c.send("BF.MADD", key, item, other);
                        final long first = added.get(key).add(item) ? 1L : 0L;
                        expected.add(List.of(first, added.get(key).add(other) ? 1L : 0L));
                    }
                    case 2 ->
                    {
                        c.send("BF.EXISTS", key, item);
                        expected.add(added.get(key).contains(item) ? 1L : 0L);
                    }
                    default ->
                    {
                        c.send("PING", item);
                        expected.add(item);
                    }
                }
            }
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), c.read(), "reply " + i);
            }
            assertEquals("MBbloom--", c.call("TYPE", "made"));
            final Map<String, Object> info = asMap(c.call("BF.INFO", "made"));
            assertEquals((long)added.get("made").size(), info.get("Number of items inserted"));
            assertTrue((Long)info.get("Capacity") >= 100, info.toString());
            assertEquals((long)added.get("grows").size(), c.call("BF.CARD", "grows"));
            assertTrue((Long)asMap(c.call("BF.INFO", "grows")).get("Number of filters") > 1, "the chain grew");
        }
    }

    @Test
    void multiExecHoldsTheChainsRepliesInItsArray() throws IOException
    {
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "fixed", "0.01", "1000", "KIND", "fifo-bloom"));
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "s", "a"));
            assertEquals("QUEUED", c.call("BF.MADD", "s", "a", "b"));
            assertEquals("QUEUED", c.call("BF.ADD", "fixed", "x"));
            assertEquals("QUEUED", c.call("BF.INFO", "s", "ITEMS"));
            assertEquals("QUEUED", c.call("CF.ADD", "c", "x"));
            assertEquals(List.of(1L, List.of(0L, 1L), 1L, List.of(2L), 1L), c.call("EXEC"));
            assertEquals("MBbloomCF", c.call("TYPE", "c"));
        }
    }

    @Test
    void resp3GetsRedisBloomsBooleansMapsAndNull() throws IOException
    {
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            assertInstanceOf(Map.class, c.call("HELLO", "3"));
            assertEquals(Boolean.TRUE, c.call("BF.ADD", "s", "a"));
            assertEquals(List.of(Boolean.FALSE, Boolean.TRUE), c.call("BF.MADD", "s", "a", "b"));
            assertEquals(List.of(Boolean.TRUE, Boolean.FALSE), c.call("BF.MEXISTS", "s", "b", "nope"));
            final Object info = c.call("BF.INFO", "s");
            assertInstanceOf(Map.class, info);
            assertEquals(List.of("Capacity", "Size", "Number of filters", "Number of items inserted",
                "Expansion rate"), new ArrayList<>(((Map<?, ?>)info).keySet()));
            assertEquals(2L, ((Map<?, ?>)info).get("Expansion rate"));
            assertEquals(List.of(100L), c.call("BF.INFO", "s", "CAPACITY"));
            assertEquals("OK", c.call("BF.RESERVE", "n", "0.01", "10", "NONSCALING"));
            final Map<?, ?> fixed = (Map<?, ?>)c.call("BF.INFO", "n");
            assertTrue(fixed.containsKey("Expansion rate") && fixed.get("Expansion rate") == null, fixed.toString());
            assertEquals(Boolean.TRUE, c.call("CF.ADD", "c", "x"));
            assertEquals(Boolean.TRUE, c.call("CF.EXISTS", "c", "x"));
            assertEquals(1L, c.call("CF.COUNT", "c", "x"));
            final Map<?, ?> cuckoo = (Map<?, ?>)c.call("CF.INFO", "c");
            assertEquals(1L, cuckoo.get("Number of items inserted"));
            assertEquals(8, cuckoo.size());
            assertEquals(Boolean.TRUE, c.call("CF.DEL", "c", "x"));
        }
    }

    @Test
    void aFullNonScalingChainEndsTheArrayWithRedisBloomsError() throws IOException
    {
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "n", "0.001", "3", "NONSCALING"));
            assertEquals(List.of(1L, 1L, 1L, "-ERR non scaling filter is full"),
                c.call("BF.MADD", "n", "a", "b", "c", "d", "e"));
            assertEquals("-ERR non scaling filter is full", c.call("BF.ADD", "n", "f"));
            assertEquals(0L, c.call("BF.ADD", "n", "a"));
            assertEquals(3L, c.call("BF.CARD", "n"));
        }
    }

    @Test
    void scalingFiltersCountAgainstMaxFilters() throws IOException
    {
        try (TestServer server = start(c -> c.maxFilters = 2); RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals(1L, c.call("CF.ADD", "b", "x"));
            final String refused = c.call("BF.ADD", "c", "x").toString();
            assertTrue(refused.startsWith("-ERR") && refused.contains("--max-filters"), refused);
            final String fixed = c.call("BF.RESERVE", "d", "0.01", "100", "KIND", "fifo-bloom").toString();
            assertTrue(fixed.startsWith("-ERR") && fixed.contains("--max-filters"), fixed);
            assertEquals(1L, c.call("DEL", "a"));
            assertEquals(1L, c.call("BF.ADD", "c", "x"));
            assertEquals(2L, c.call("DBSIZE"));
        }
    }

    @Test
    void aCreationThatFailsSaysWhy() throws IOException
    {
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            // a directory where the filter's file would go: the file cannot be made
            Files.createDirectories(server.server.store().dir().resolve(KeyNames.fileName("blocked") + "s"));
            final String refused = c.call("BF.ADD", "blocked", "x").toString();
            assertTrue(refused.startsWith("-ERR could not create filter: ") && refused.length() > 35, refused);
            assertEquals(0L, c.call("EXISTS", "blocked"));
            assertEquals("PONG", c.call("PING"));
        }
    }

    /**
     * The test holds the registry's read lock, so a creation can make its chain's file but not add it: the creating
     * client's reply cannot come until the test lets go, while another client on the same event loop is served.
     */
    @Test
    void chainsAreMadeOffTheEventLoopAndAnswerInOrder() throws IOException
    {
        try (TestServer server = start(c -> c.ioThreads = 1); RespClient creator = server.client();
            RespClient other = server.client())
        {
            assertEquals("PONG", other.call("PING"));
            server.server.store().scaling().acquire("unrelated");
            try
            {
                creator.send("BF.RESERVE", "big", "0.01", "1000000");
                creator.send("BF.ADD", "auto", "x");
                creator.send("PING", "after");
                for (int i = 0; i < 3; i++)
                {
                    assertEquals("PONG", other.call("PING"));
                }
                assertFalse(creator.replyArrived(), "BF.RESERVE answered while its chain could not be stored");
            }
            finally
            {
                server.server.store().scaling().release();
            }
            assertEquals("OK", creator.read());
            assertEquals(1L, creator.read());
            assertEquals("after", creator.read());
        }
    }

    @Test
    void chainsSurviveARestart() throws IOException
    {
        final List<String> items = new ArrayList<>();
        long unseen;
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            items.add("BF.MADD");
            items.add("kept");
            for (int i = 0; i < 1000; i++)
            {
                items.add("r" + i);
            }
            c.send(items.toArray(new String[0]));
            final List<?> verdicts = (List<?>)c.read();
            assertEquals(1000, verdicts.size());
            unseen = verdicts.stream().filter(v -> v.equals(1L)).count();
            assertEquals(1L, c.call("CF.ADD", "cuckoo", "x"));
        }
        try (TestServer server = start(c -> { }); RespClient c = server.client())
        {
            items.set(0, "BF.MEXISTS");
            final List<?> present = (List<?>)c.call(items.toArray(new String[0]));
            assertFalse(present.contains(0L), "every item present after the restart");
            assertEquals(unseen, c.call("BF.CARD", "kept"));
            assertEquals(1L, c.call("CF.COUNT", "cuckoo", "x"));
            assertTrue(server.log().contains("2 filters loaded"), server.log());
            final Map<String, Object> ddf = asMap(c.call("BF.INFO", "kept", "DDF"));
            assertEquals("ddf", ddf.get("layout"), "BF.ADD made ddf's chain of blocked layers, the default");
        }
    }

    @Test
    void theForgettingDefaultStillRoutesScalingKindsToChains() throws IOException
    {
        try (TestServer server = new TestServer(dir.resolve("data"),
            c -> c.pastCapacity = ServerConfig.PastCapacity.FORGET); RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "forgets", "x"));
            assertEquals("OK", c.call("BF.RESERVE", "grows", "0.01", "10", "KIND", "scaling"));
            assertEquals("OK", c.call("BF.RESERVE", "theirs", "0.01", "10", "KIND", "redisbloom"));
            assertEquals("ddf", asMap(c.call("BF.INFO", "grows", "DDF")).get("layout"));
            assertEquals("redisbloom", asMap(c.call("BF.INFO", "theirs", "DDF")).get("layout"));
            final String notAChain = c.call("BF.DEBUG", "forgets").toString();
            assertTrue(notAChain.startsWith("-ERR") && notAChain.contains("fixed-size"), notAChain);
        }
    }

    private static Map<String, Object> asMap(final Object flat)
    {
        final Map<String, Object> map = new java.util.LinkedHashMap<>();
        final List<?> list = (List<?>)flat;
        for (int i = 0; i < list.size(); i += 2)
        {
            map.put(list.get(i).toString(), list.get(i + 1));
        }
        return map;
    }
}
