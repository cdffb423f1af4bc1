package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One RESP connection end to end (session.RespConnection with its decoder and writer): inline and pipelined\ncommands answered in order, input cut anywhere, the limits that close a connection with an error (oversized bulk,\nhuge array header, garbage, a null bulk, a client that never reads, --max-clients, the idle timeout), QUIT, a\nclient gone mid-frame, and AUTH before anything else.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RespConnectionTest extends SharedServerTestBase
{
    @Test
    void inlineCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("PING\r\nBF.ADD inl a\r\nBF.ADD inl a\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("PONG", c.read());
            assertEquals(1L, c.read());
            assertEquals(0L, c.read());
        }
    }

    /** Pipelined requests mixing pipeline-judged commands and immediate ones come back in request order. */
    @Test
    void pipelinedMixedCommandsReplyInOrder() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "order", "0.000001", "100000"));
            final ByteArrayOutputStream requests = new ByteArrayOutputStream();
            final List<Object> expected = new ArrayList<>();
            final Set<String> seen = new HashSet<>();
            for (int i = 0; i < 20_000; i++)
            {
                final String item = "e" + random.nextInt(3000);
                switch (random.nextInt(5))
                {
                    case 0 ->
                    {
                        requests.writeBytes(RespClient.encode("PING", "p" + i));
                        expected.add("p" + i);
                    }
                    case 1 ->
                    {
                        requests.writeBytes(RespClient.encode("BF.EXISTS", "order", item));
                        expected.add(seen.contains(item) ? 1L : 0L);
                    }
                    case 2 ->
                    {
                        final String other = "e" + random.nextInt(3000);
                        requests.writeBytes(RespClient.encode("BF.MADD", "order", item, other));
                        final long first = seen.add(item) ? 1L : 0L;
                        expected.add(List.of(first, seen.add(other) ? 1L : 0L));
                    }
                    default ->
                    {
                        requests.writeBytes(RespClient.encode("BF.ADD", "order", item));
                        expected.add(seen.add(item) ? 1L : 0L);
                    }
                }
            }
            final Thread writer = new Thread(() ->
            {
                try
                {
                    c.sendRaw(requests.toByteArray());
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writer.start();
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), c.read(), "reply " + i + " (seed " + seed + ")");
            }
        }
    }

    /**
     * Pipelined BF.ADDs on chains are added in groups at the end of each read (commands.redisbloom.ChainAdds): the
     * replies still come as if each ran alone, across a chain's growth within a group, a NONSCALING chain filling up
     * (its error in its place), two keys interleaved, a DEL and a BF.RESERVE of the key between two adds, and other
     * commands between them.
     */
    @Test
    void pipelinedAddsOnChainsAnswerAsOneByOne() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "grows", "0.000001", "8"));
            assertEquals("OK", c.call("BF.RESERVE", "fills", "0.000001", "8", "NONSCALING"));
            final ByteArrayOutputStream requests = new ByteArrayOutputStream();
            final List<Object> expected = new ArrayList<>();
            final Set<String> grows = new HashSet<>();
            final Set<String> fills = new HashSet<>();
            for (int i = 0; i < 4_000; i++)
            {
                final String item = "i" + random.nextInt(400);
                final int pick = random.nextInt(100);
                if (pick < 55)
                {
                    requests.writeBytes(RespClient.encode("BF.ADD", "grows", item));
                    expected.add(grows.add(item) ? 1L : 0L);
                }
                else if (pick < 85)
                {
                    requests.writeBytes(RespClient.encode("BF.ADD", "fills", item));
                    if (fills.contains(item))
                    {
                        expected.add(0L);
                    }
                    else
                    {
                        expected.add(fills.size() < 8 && fills.add(item) ? 1L : "-ERR non scaling filter is full");
                    }
                }
                else if (pick < 95)
                {
                    requests.writeBytes(RespClient.encode("BF.EXISTS", "grows", item));
                    expected.add(grows.contains(item) ? 1L : 0L);
                }
                else if (pick < 98)
                {
                    requests.writeBytes(RespClient.encode("PING", "p" + i));
                    expected.add("p" + i);
                }
                else
                {
                    requests.writeBytes(RespClient.encode("DEL", "grows"));
                    requests.writeBytes(RespClient.encode("BF.RESERVE", "grows", "0.000001", "8"));
                    expected.add(1L);
                    expected.add("OK");
                    grows.clear();
                }
            }
            c.sendRaw(requests.toByteArray());
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i).toString(), c.read().toString(), "reply " + i + " (seed " + seed + ")");
            }
        }
    }

    @Test
    void oneByteAtATime() throws IOException
    {
        try (RespClient c = server.client())
        {
            final byte[] bytes = concat(RespClient.encode("BF.ADD", "slow", "a"), RespClient.encode("PING"),
                RespClient.encode("BF.ADD", "slow", "a"), "PING\r\n".getBytes(StandardCharsets.US_ASCII));
            for (final byte b : bytes)
            {
                c.sendRaw(new byte[] {b});
            }
            assertEquals(1L, c.read());
            assertEquals("PONG", c.read());
            assertEquals(0L, c.read());
            assertEquals("PONG", c.read());
        }
    }

    /**
     * A client that sends its commands and ends its input (a half close: {@code printf 'PING\r\nPING\r\n' | nc})
     * gets every reply, then the close, as from Redis: the daemon had closed at the end of input, replies unsent, and
     * logged the close as an output limit passed. Also when a command waits for work off the event loop (BF.ADD making
     * its key's filter) and for pipelined adds on a chain, which are added together at the end of the input.
     */
    @Test
    void aClientThatEndsItsInputIsAnsweredThenClosed() throws IOException
    {
        final byte[][] inputs = {
            concat(RespClient.encode("PING"), RespClient.encode("ECHO", "x"), RespClient.encode("PING")),
            concat(RespClient.encode("BF.ADD", "ended-new", "a"), RespClient.encode("BF.ADD", "ended-new", "a"),
                RespClient.encode("PING")),
            concat(RespClient.encode("BF.ADD", "ended-new", "b"), RespClient.encode("BF.ADD", "ended-new", "a"),
                RespClient.encode("BF.ADD", "ended-new", "b")),
        };
        final Object[][] replies = {{"PONG", "x", "PONG"}, {1L, 0L, "PONG"}, {1L, 0L, 0L}};
        for (int i = 0; i < inputs.length; i++)
        {
            try (RespClient c = server.client())
            {
                c.sendRaw(inputs[i]);
                c.socket().shutdownOutput();
                for (final Object expected : replies[i])
                {
                    assertEquals(expected.toString(), c.read().toString(), "input " + i);
                }
                assertTrue(c.closedByServer(), "input " + i + ": not closed once answered");
            }
        }
        stillServes();
    }

    /** A connection idle longer than --idle-timeout is closed; active ones and new ones are served. */
    @Test
    void idleConnectionsAreClosed() throws Exception
    {
        try (TestServer idle = new TestServer(dir.resolve("idle-data"), c -> c.idleTimeoutSeconds = 1);
             RespClient quiet = idle.client();
             RespClient busy = idle.client())
        {
            assertEquals("PONG", quiet.call("PING").toString());
            final long start = System.nanoTime();
            for (int i = 0; i < 6; i++) // keep busy active past the timeout
            {
                Thread.sleep(400);
                assertEquals("PONG", busy.call("PING").toString());
            }
            assertTrue(quiet.closedByServer(), "an idle connection was not closed");
            assertTrue(System.nanoTime() - start >= 1_000_000_000L);
            assertEquals("PONG", busy.call("PING").toString());
            try (RespClient fresh = idle.client())
            {
                assertEquals("PONG", fresh.call("PING").toString());
            }
        }
    }

    @Test
    void oversizedBulkIsRefusedAndClosed() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw(("*2\r\n$4\r\nECHO\r\n$" + (server.config.maxBulkBytes + 1) + "\r\nabc").getBytes(
                StandardCharsets.US_ASCII));
            final Object reply = c.read();
            assertTrue(reply.toString().startsWith("-ERR Protocol error"), reply::toString);
            assertTrue(c.closedByServer());
        }
        stillServes();
    }

    @Test
    void hugeArrayHeaderIsRefusedAndClosed() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*2000000000\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        try (RespClient c = server.client())
        {
            c.sendRaw("*1\r\n*1\r\n*1\r\n*1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        stillServes();
    }

    @Test
    void garbageGetsAnErrorAndAClose() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*abc\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        for (int round = 0; round < 20; round++)
        {
            try (RespClient c = server.client())
            {
                final byte[] garbage = new byte[1 + random.nextInt(4096)];
                random.nextBytes(garbage);
                garbage[0] = (byte)"*$+-:"
                    .charAt(random.nextInt(5));
                try
                {
                    c.sendRaw(garbage);
                    c.socket().shutdownOutput();
                    c.closedByServer();
                }
                catch (final IOException e)
                {
                    // the daemon may close before reading all of it
                }
            }
        }
        stillServes();
    }

    @Test
    void clientDisconnectingMidFrame() throws IOException
    {
        for (int i = 0; i < 50; i++)
        {
            try (RespClient c = server.client())
            {
                c.sendRaw(("*3\r\n$6\r\nBF.ADD\r\n$3\r\nmid\r\n$100\r\nabc").getBytes(StandardCharsets.US_ASCII));
            }
        }
        stillServes();
    }

    static void stillServes() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void passwordRequired() throws IOException
    {
        try (TestServer secured = new TestServer(dir.resolve("auth"), c -> c.requirePass = "s3cret");
             RespClient c = secured.client())
        {
            assertEquals("-NOAUTH Authentication required.", c.call("PING"));
            assertEquals("-NOAUTH Authentication required.", c.call("BF.ADD", "k", "a"));
            assertTrue(c.call("AUTH", "wrong").toString().startsWith("-WRONGPASS"));
            assertEquals("OK", c.call("AUTH", "s3cret"));
            assertEquals(1L, c.call("BF.ADD", "k", "a"));
        }
    }

    @Test
    void maxClients() throws IOException
    {
        try (TestServer small = new TestServer(dir.resolve("max"), c -> c.maxClients = 2);
             RespClient a = small.client())
        {
            final RespClient b = small.client();
            assertEquals("PONG", a.call("PING"));
            assertEquals("PONG", b.call("PING"));
            try (RespClient extra = small.client())
            {
                assertEquals("-ERR max number of clients reached", extra.read());
                assertTrue(extra.closedByServer());
            }
            assertEquals("PONG", a.call("PING"));
            b.close();
            // the slot frees once the daemon has seen the close
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (true)
            {
                try (RespClient again = small.client())
                {
                    final Object reply = again.call("PING");
                    if ("PONG".equals(reply) || System.nanoTime() > deadline)
                    {
                        assertEquals("PONG", reply);
                        break;
                    }
                }
                catch (final IOException e)
                {
                    assertTrue(System.nanoTime() < deadline, e.toString());
                }
            }
        }
    }

    /** A client that never reads its replies is disconnected once they exceed the output limit. */
    @Test
    void clientThatNeverReadsIsDisconnected() throws IOException
    {
        try (TestServer limited = new TestServer(dir.resolve("limit"), c -> c.clientOutputLimit = 1 << 20);
             RespClient c = limited.client())
        {
            final byte[] request = RespClient.encode("ECHO", "y".repeat(16 * 1024));
            final byte[] batch = new byte[request.length * 64];
            for (int i = 0; i < 64; i++)
            {
                System.arraycopy(request, 0, batch, i * request.length, request.length);
            }
            boolean disconnected = false;
            long sent = 0;
            try
            {
                while (sent < (2L << 30))
                {
                    c.sendRaw(batch);
                    sent += batch.length;
                }
            }
            catch (final IOException e)
            {
                disconnected = true;
            }
            assertTrue(disconnected, "still connected after " + sent + " bytes");
            try (RespClient other = limited.client())
            {
                assertEquals("PONG", other.call("PING"));
            }
        }
    }

    /** As in Redis, QUIT ends the connection where it stands: a command pipelined after it does not run. */
    @Test
    void nothingPipelinedAfterQuitRuns() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "after-quit", "a"));
            final java.io.ByteArrayOutputStream both = new java.io.ByteArrayOutputStream();
            both.writeBytes(RespClient.encode("QUIT"));
            both.writeBytes(RespClient.encode("BF.ADD", "after-quit", "x"));
            c.sendRaw(both.toByteArray());
            assertEquals("OK", c.read());
            assertTrue(c.closedByServer());
        }
        try (RespClient c = server.client())
        {
            assertEquals(0L, c.call("BF.EXISTS", "after-quit", "x"), "the BF.ADD after QUIT ran");
        }
    }

    @Test
    void nullBulkIsAProtocolError() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*2\r\n$4\r\nECHO\r\n$-1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
    }

    static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
