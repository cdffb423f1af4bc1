package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code serve --execution inline} end to end: replies keep command order across the waits that remain (a filter
 * being created holds the replies of the commands after it), inside MULTI/EXEC and around the CF commands that
 * work on fingerprints; and several event loops streaming into one filter at once lose no element and no count.
 * The suites that start a daemon also run in this mode ({@code -Dddf.test.execution=inline}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InlineExecutionTest
{
    @TempDir
    static Path dir;
    static TestServer server;

    @BeforeAll
    static void start()
    {
        server = new TestServer(dir.resolve("data"), c ->
        {
            c.execution = ServerConfig.Execution.INLINE;
            c.ioThreads = 2;
        });
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @Test
    void repliesKeepCommandOrderAcrossCreationTransactionsAndCuckooCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            final String[][] commands = {
                {"BF.ADD", "fresh1", "a"},          // creates the filter: the replies below wait for it
                {"BF.ADD", "fresh1", "a"},
                {"BF.EXISTS", "fresh1", "a"},
                {"PING"},
                {"BF.MADD", "fresh2", "x", "y", "x"}, // a second creation
                {"BF.CARD", "fresh1"},
                {"MULTI"},
                {"BF.ADD", "fresh1", "b"},
                {"BF.EXISTS", "fresh1", "b"},
                {"BF.CARD", "fresh1"},
                {"EXEC"},
                {"CF.ADDNX", "cf1", "z"},           // creates a cuckoo filter
                {"CF.COUNT", "cf1", "z"},
                {"CF.ADD", "cf1", "z"},
                {"CF.COUNT", "cf1", "z"},
                {"CF.DEL", "cf1", "z"},
                {"CF.EXISTS", "cf1", "z"},
                {"CF.ADDNX", "cf1", "z"},
                {"ECHO", "last"},
            };
            final List<Object> expected = List.of(1L, 0L, 1L, "PONG", List.of(1L, 1L, 0L), 1L, "OK", "QUEUED",
                "QUEUED", "QUEUED", List.of(1L, 1L, 2L), 1L, 1L, 1L, 2L, 1L, 1L, 0L, "last");
            final ByteArrayOutputStream requests = new ByteArrayOutputStream();
            for (final String[] command : commands)
            {
                requests.writeBytes(RespClient.encode(command));
            }
            c.sendRaw(requests.toByteArray()); // one write: the daemon reads them together
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), c.read(), "reply " + i + " to " + String.join(" ", commands[i]));
            }
        }
    }

    @Test
    void eventLoopsStreamingIntoOneFilterLoseNothing() throws Exception
    {
        final long seed = TestSeed.seed();
        final int clients = 4;
        final int perClient = 5_000;
        try (RespClient c = server.client())
        {
            // 10^-9 at 10^5: no false positive among these 2 * 10^4 elements but with odds of ~10^-5
            assertEquals("OK", c.call("BF.RESERVE", "shared", "0.000000001", "100000"));
        }
        final ExecutorService pool = Executors.newFixedThreadPool(clients);
        try
        {
            final List<Future<Long>> added = new ArrayList<>();
            for (int t = 0; t < clients; t++)
            {
                final int client = t;
                // connections are spread over the two event loops: they stream into "shared" at the same time
                added.add(pool.submit(() -> addAll(client, perClient, new Random(seed + client))));
            }
            for (final Future<Long> f : added)
            {
                assertEquals((long)perClient, f.get(), "every element unseen (seed " + seed + ")");
            }
        }
        finally
        {
            pool.shutdownNow();
        }
        try (RespClient c = server.client())
        {
            assertEquals((long)clients * perClient, c.call("BF.CARD", "shared"), "seed " + seed);
            assertEquals(List.of((long)clients * perClient), c.call("BF.INFO", "shared", "ITEMS"), "seed " + seed);
        }
    }

    /** Adds distinct elements in pipelined batches of random size; returns how many were answered 1. */
    private static long addAll(final int client, final int count, final Random random) throws IOException
    {
        long ones = 0;
        try (RespClient c = server.client())
        {
            int i = 0;
            while (i < count)
            {
                final int batch = Math.min(count - i, 1 + random.nextInt(64));
                final ByteArrayOutputStream requests = new ByteArrayOutputStream();
                for (int j = 0; j < batch; j++)
                {
                    requests.writeBytes(RespClient.encode("BF.ADD", "shared", "c" + client + "-" + (i + j)));
                }
                c.sendRaw(requests.toByteArray());
                for (int j = 0; j < batch; j++)
                {
                    ones += (Long)c.read();
                }
                i += batch;
            }
        }
        return ones;
    }
}
