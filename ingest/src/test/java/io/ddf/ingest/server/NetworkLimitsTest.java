package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.resp.InputBudget;
import io.ddf.ingest.session.AuthThrottle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 13's network items in process: what a stranger may send, how much input is held, AUTH, slots. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NetworkLimitsTest
{
    private static final String PASSWORD = "s3cret";

    @TempDir
    Path dir;

    @Test
    void beforeAuthOnlySmallCommandsAreRead() throws IOException
    {
        try (TestServer server = new TestServer(dir, c -> c.requirePass = PASSWORD))
        {
            try (RespClient c = server.client())
            {
                final String[] eleven = new String[11];
                java.util.Arrays.fill(eleven, "x");
                eleven[0] = "AUTH";
                final Object reply = c.call(eleven);
                assertTrue(reply.toString().startsWith("-ERR Protocol error: unauthenticated multibulk length") &&
                    reply.toString().contains("10 arguments"), reply::toString);
                assertTrue(c.closedByServer());
            }
            try (RespClient c = server.client())
            {
                c.sendRaw(("*2\r\n$4\r\nAUTH\r\n$" + (16 * 1024 + 1) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                final Object reply = c.read();
                assertTrue(reply.toString().startsWith("-ERR Protocol error: unauthenticated bulk length") &&
                    reply.toString().contains("16384 bytes"), reply::toString);
                assertTrue(c.closedByServer());
            }
            try (RespClient c = server.client())
            {
                // after AUTH the ordinary limits apply
                assertEquals("OK", c.call("AUTH", PASSWORD));
                assertEquals("x".repeat(20_000), c.call("ECHO", "x".repeat(20_000)));
            }
        }
    }

    @Test
    void aClientThatDoesNotAuthenticateInTimeIsClosed() throws IOException
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            c.requirePass = PASSWORD;
            c.authTimeoutSeconds = 1;
        }); RespClient c = server.client())
        {
            final Object reply = c.read();
            assertTrue(reply.toString().contains("--auth-timeout"), reply::toString);
            assertTrue(c.closedByServer());
            assertTrue(server.log().contains("did not AUTH within --auth-timeout 1 s"), server.log());
        }
    }

    @Test
    void aMaddAndAMexistsOf700000ItemsAreAnsweredInFull() throws IOException
    {
        try (TestServer server = new TestServer(dir, c -> { }); RespClient c = server.client())
        {
            final int n = 700_000;
            c.sendRaw(items("BF.MADD", n));
            final List<?> added = verdicts(c.read(), n);
            assertEquals(n, added.stream().filter(v -> v.equals(1L) || v.equals(0L)).count());
            c.sendRaw(items("BF.MEXISTS", n));
            final List<?> present = verdicts(c.read(), n);
            assertEquals(n, present.stream().filter(v -> v.equals(1L)).count(), "every item just added is there");
            assertEquals("PONG", c.call("PING"));
        }
    }

    private static byte[] items(final String command, final int n)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(n * 16);
        bytes.writeBytes(("*" + (n + 2) + "\r\n$" + command.length() + "\r\n" + command + "\r\n$1\r\nm\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < n; i++)
        {
            final String item = "item" + i;
            bytes.writeBytes(("$" + item.length() + "\r\n" + item + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        return bytes.toByteArray();
    }

    private static List<?> verdicts(final Object reply, final int n)
    {
        assertTrue(reply instanceof List, () -> "not an array: " + reply);
        assertEquals(n, ((List<?>)reply).size());
        return (List<?>)reply;
    }

    @Test
    void aCommandTooLargeGetsAnErrorNamingTheLimit() throws IOException
    {
        try (TestServer server = new TestServer(dir, c -> c.maxRequestBytes = 100_000); RespClient c = server.client())
        {
            final String arg = "y".repeat(60_000);
            final Object reply = c.call("BF.MADD", "k", arg, arg);
            assertTrue(reply.toString().startsWith("-ERR command larger than the limit of 100000 bytes") &&
                reply.toString().contains("--max-request-bytes"), reply::toString);
            assertTrue(c.closedByServer());
        }
    }

    /**
     * Issue 13, item 4, scaled down: clients that each send the start of a large command and stop. Past the global
     * bound the connection holding the most is answered with an error naming the limit and closed; what is
     * reserved never passes the bound, and the daemon still serves.
     */
    @Test
    void bufferedInputAcrossConnectionsIsBounded() throws Exception
    {
        final long limit = 4L * 1024 * 1024;
        try (TestServer server = new TestServer(dir, c ->
        {
            c.maxInputBytes = limit;
            c.maxRequestBytes = limit;
        }))
        {
            final InputBudget budget = server.server.inputBudget();
            final byte[] arg = new byte[256 * 1024];
            java.util.Arrays.fill(arg, (byte)'a');
            final List<RespClient> flood = new ArrayList<>();
            int refused = 0;
            String error = null;
            for (int i = 0; i < 8; i++)
            {
                final RespClient c = server.client();
                flood.add(c);
                // the start of a 16 MiB BF.MADD: 8 arguments of 256 KiB (2 MiB) sent, never finished
                c.sendRaw(("*66\r\n$7\r\nBF.MADD\r\n$1\r\nm\r\n").getBytes(StandardCharsets.US_ASCII));
                for (int a = 0; a < 8; a++)
                {
                    c.sendRaw(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    try
                    {
                        c.sendRaw(arg);
                        c.sendRaw("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    catch (final IOException closed)
                    {
                        break;
                    }
                }
            }
            for (final RespClient c : flood)
            {
                c.socket().setSoTimeout(3000);
                try
                {
                    final Object reply = c.read();
                    refused++;
                    error = reply.toString();
                }
                catch (final java.net.SocketTimeoutException still)
                {
                    // holds its share, waiting
                }
                catch (final EOFException | java.net.SocketException gone)
                {
                    refused++;
                }
            }
            assertTrue(refused >= 5, "8 clients holding 2 MiB each under a 4 MiB bound, only " + refused + " refused");
            assertTrue(error != null && error.contains("--max-input-bytes") && error.contains(Long.toString(limit)),
                String.valueOf(error));
            assertTrue(budget.reserved() <= limit, budget.reserved() + " bytes reserved");
            try (RespClient c = server.client())
            {
                assertEquals("PONG", c.call("PING"));
            }
            for (final RespClient c : flood)
            {
                c.close();
            }
        }
    }

    @Test
    void failedAuthSlowsTheConnectionAndClosesItAfterAFewTries() throws IOException
    {
        try (TestServer server = new TestServer(dir, c -> c.requirePass = PASSWORD); RespClient c = server.client())
        {
            final long start = System.nanoTime();
            for (int i = 1; i < AuthThrottle.MOST_FAILURES; i++)
            {
                assertTrue(c.call("AUTH", "guess" + i).toString().startsWith("-WRONGPASS"));
            }
            final Object last = c.call("AUTH", "guess-last");
            assertTrue(last.toString().startsWith("-WRONGPASS") && last.toString().contains("closing"), last::toString);
            assertTrue(c.closedByServer());
            // a lower bound only: the delays 100+200+400+800+1600 ms must all have been waited
            final long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMillis >= 3100, waitedMillis + " ms for 5 failed AUTHs");
            final long lines = server.log().lines().filter(l -> l.contains("failed AUTH")).count();
            assertEquals(1, lines, "one log line per interval, not one per failure:\n" + server.log());
        }
    }

    @Test
    void idleStrangersCannotHoldEverySlot() throws IOException
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            c.requirePass = PASSWORD;
            c.maxClients = 10;
        }))
        {
            final List<RespClient> strangers = new ArrayList<>();
            try
            {
                for (int i = 0; i < 15; i++)
                {
                    final RespClient stranger = server.client();
                    strangers.add(stranger);
                    // answered once the daemon has seen it (NOAUTH; before the fix, past 10: max clients)
                    stranger.call("PING");
                }
                final Object oldest = strangers.get(0).read();
                assertTrue(oldest.toString().contains("too many unauthenticated connections"), oldest::toString);
                try (RespClient member = server.client())
                {
                    assertEquals("OK", member.call("AUTH", PASSWORD));
                    assertEquals(1L, member.call("BF.ADD", "k", "a"));
                }
            }
            finally
            {
                for (final RespClient c : strangers)
                {
                    c.close();
                }
            }
        }
    }

    @Test
    void theRawFeedWantsThePasswordFirst() throws IOException
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            c.requirePass = PASSWORD;
            c.feedPort = 0;
        }))
        {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.server.feedPort()))
            {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("a\nb\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals(-1, s.getInputStream().read(), "a feed without the password is closed, unanswered");
            }
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.server.feedPort()))
            {
                s.setSoTimeout(10_000);
                s.getOutputStream().write((PASSWORD + "\na\nb\na\n").getBytes(StandardCharsets.US_ASCII));
                assertEquals("UUD", new String(s.getInputStream().readNBytes(3), StandardCharsets.US_ASCII));
            }
            assertTrue(server.log().contains("wrong password in the first record"), server.log());
        }
    }

    @Test
    void theRawFeedRefusesAnOpenBindWithoutAPassword()
    {
        final ServerConfig config = new ServerConfig();
        config.port = 0;
        config.feedPort = 0;
        config.bind = "0.0.0.0";
        config.dataDir = dir;
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> DdfServer.start(config, System.err).close());
        assertTrue(e.getMessage().contains("password"), e.getMessage());
    }
}
