package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands over the whole keyspace, as Redis answers them: KEYS, SCAN (a cursor that survives changes between\npages), FLUSHALL and FLUSHDB, MEMORY USAGE. The tests that need the whole keyspace start their own daemon.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KeyspaceCommandsTest extends SharedServerTestBase
{
    @Test
    void keysScanMemoryAndFlushAll() throws IOException
    {
        try (TestServer own = new TestServer(dir.resolve("keyspace"), c -> { }); RespClient c = own.client())
        {
            final Set<String> keys = new TreeSet<>();
            for (int i = 0; i < 25; i++)
            {
                assertEquals("OK", c.call("BF.RESERVE", "k" + i, "0.01", "1000"));
                keys.add("k" + i);
            }
            assertEquals(new TreeSet<>(List.of("k1", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18",
                "k19")), new TreeSet<>(list(c.call("KEYS", "k1*"))));
            assertEquals(keys, new TreeSet<>(list(c.call("KEYS", "*"))));
            assertEquals(List.of(), c.call("KEYS", "nomatch*"));
            assertEquals(keys, scanAll(c, "COUNT", "7"));
            assertEquals(keys, scanAll(c));
            assertEquals(keys, scanAll(c, "TYPE", "MBbloom--"));
            assertEquals(Set.of(), scanAll(c, "TYPE", "string"));
            assertEquals(Set.of("k2", "k20", "k21", "k22", "k23", "k24"), scanAll(c, "MATCH", "k2*", "COUNT", "3"));
            assertEquals("-ERR invalid cursor", c.call("SCAN", "abc"));
            assertEquals("-ERR syntax error", c.call("SCAN", "0", "COUNT", "0"));
            assertEquals("-ERR syntax error", c.call("SCAN", "0", "BOGUS", "1"));
            final long usage = (Long)c.call("MEMORY", "USAGE", "k3");
            assertEquals(Files.size(own.server.store().dir().resolve("k3.ddfs")), usage, "the default filter's file");
            assertTrue(usage > 0);
            assertEquals(null, c.call("MEMORY", "USAGE", "nosuch"));
            assertEquals("OK", c.call("FLUSHALL"));
            assertEquals(0L, c.call("DBSIZE"));
            assertEquals(List.of(), c.call("KEYS", "*"));
            try (Stream<Path> files = Files.list(dir.resolve("keyspace")))
            {
                // every filter's file is gone; the change log (issue 31) is the data directory's, not a filter's
                assertEquals(List.of(), files.filter(f -> !f.getFileName().toString().startsWith(".") &&
                    !f.getFileName().toString().equals("log")).toList());
            }
            assertEquals(1L, c.call("BF.ADD", "again", "a"));
            assertEquals("OK", c.call("FLUSHALL", "ASYNC"));
            assertEquals(0L, c.call("EXISTS", "again"));
            assertEquals("OK", c.call("FLUSHALL", "SYNC"));
            assertEquals("-ERR syntax error", c.call("FLUSHALL", "LATER"));
        }
    }

    @Test
    void flushdbIsFlushallOfTheOneDatabase() throws IOException
    {
        try (TestServer own = new TestServer(dir.resolve("flushdb"), c -> { }); RespClient c = own.client())
        {
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals("OK", c.call("CF.RESERVE", "b", "100"));
            assertEquals("OK", c.call("FLUSHDB"));
            assertEquals(0L, c.call("DBSIZE"));
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals("OK", c.call("FLUSHDB", "ASYNC"));
            assertEquals(0L, c.call("EXISTS", "a"));
            assertEquals("OK", c.call("FLUSHDB", "SYNC"));
            assertEquals("-ERR syntax error", c.call("FLUSHDB", "LATER"));
            assertEquals(1L, c.call("BF.ADD", "kept", "x"));
            assertTrue(String.valueOf(c.call("FLUSHDB", "SYNC", "ASYNC")).startsWith("-ERR wrong number"));
            assertEquals(1L, c.call("DBSIZE"));
        }
    }

    @Test
    void scanReturnsEveryKeyPresentThroughoutWhateverChangesBetweenPages() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (TestServer own = new TestServer(dir.resolve("churn"), c -> { }); RespClient c = own.client())
        {
            final Set<String> live = new HashSet<>();
            for (int i = 0; i < 60; i++)
            {
                c.call("BF.ADD", "s" + i, "a");
                live.add("s" + i);
            }
            final Set<String> throughout = new HashSet<>(live);
            final Set<String> returned = new HashSet<>();
            String cursor = "0";
            int created = 0;
            do
            {
                final List<Object> page = list(c.call("SCAN", cursor, "COUNT", "4"));
                cursor = (String)page.get(0);
                list(page.get(1)).forEach(k -> returned.add((String)k));
                if (random.nextBoolean())
                {
                    final String gone = new ArrayList<>(live).get(random.nextInt(live.size()));
                    c.call("DEL", gone);
                    live.remove(gone);
                    throughout.remove(gone);
                }
                c.call("BF.ADD", "new" + created++, "a");
            }
            while (!cursor.equals("0"));
            throughout.removeAll(returned);
            assertEquals(Set.of(), throughout, "keys present throughout but not returned (seed " + seed + ")");
        }
    }

    private static Set<String> scanAll(final RespClient c, final String... options) throws IOException
    {
        final Set<String> keys = new TreeSet<>();
        String cursor = "0";
        do
        {
            final String[] args = new String[options.length + 2];
            args[0] = "SCAN";
            args[1] = cursor;
            System.arraycopy(options, 0, args, 2, options.length);
            final List<Object> page = list(c.call(args));
            cursor = (String)page.get(0);
            list(page.get(1)).forEach(k -> assertTrue(keys.add((String)k), "returned twice: " + k));
        }
        while (!cursor.equals("0"));
        return keys;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(final Object reply)
    {
        return (List<Object>)assertInstanceOf(List.class, reply);
    }
}
