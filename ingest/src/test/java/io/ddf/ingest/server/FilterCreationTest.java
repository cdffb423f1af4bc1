package io.ddf.ingest.server;

import io.ddf.ingest.store.FilterStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filter files are created off the event loop: one client waits for its filter while the others, on the same
 * event loop (one I/O thread), are served. The test holds a lease on the whole store, so a creation can make its
 * file but not add it to the store: the creating client's reply cannot arrive until the test lets go, whatever the
 * machine's speed. Before the split the event loop itself blocked on the store's lock, and PING timed out.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FilterCreationTest
{
    @TempDir
    Path dir;
    TestServer server;

    @BeforeEach
    void start()
    {
        server = new TestServer(dir.resolve("data"), c ->
        {
            TestServer.forget(c); // the creation of ddf's fixed-size files, zero-filled off the event loop
            c.ioThreads = 1;
        });
    }

    @AfterEach
    void stop()
    {
        server.close();
    }

    @Test
    void otherClientsAreServedWhileALargeFilterIsCreated() throws IOException
    {
        try (RespClient creator = server.client(); RespClient other = server.client())
        {
            assertEquals("PONG", other.call("PING"));
            final FilterStore.Lease held = server.server.store().leaseAll();
            try
            {
                // a fifo-bloom for 5·10^7 items at 1 %: a ~70 MB file, allocated and synced
                creator.send("BF.RESERVE", "large", "0.01", "50000000");
                creator.send("PING", "after");
                // only commands that take no lease: a writer waiting for the lock holds back new readers
                for (int i = 0; i < 3; i++)
                {
                    assertEquals("PONG", other.call("PING"));
                    assertEquals("hi", other.call("ECHO", "hi"));
                }
                assertFalse(creator.replyArrived(), "BF.RESERVE answered while its filter could not be stored");
            }
            finally
            {
                held.close();
            }
            assertEquals("OK", creator.read());
            assertEquals("after", creator.read());
            assertEquals(0L, other.call("BF.EXISTS", "large", "x"));
            assertTrue(Files.size(server.server.store().dir().resolve("large.ddf")) >= 50_000_000L);
        }
    }

    @Test
    void aFilterMadeOnFirstUseAnswersInCommandOrder() throws IOException
    {
        try (RespClient creator = server.client(); RespClient other = server.client())
        {
            final FilterStore.Lease held = server.server.store().leaseAll();
            try
            {
                // pipelined: the commands after the first BF.ADD wait for its filter, and so do their replies
                creator.sendRaw(concat(RespClient.encode("BF.ADD", "fresh", "a"), RespClient.encode("PING"),
                    RespClient.encode("BF.MADD", "fresh", "a", "b"), RespClient.encode("BF.EXISTS", "fresh", "b")));
                assertEquals("PONG", other.call("PING"));
                assertFalse(creator.replyArrived(), "a reply overtook the creation of its filter");
            }
            finally
            {
                held.close();
            }
            assertEquals(1L, creator.read());
            assertEquals("PONG", creator.read());
            assertEquals(List.of(0L, 1L), creator.read());
            assertEquals(1L, creator.read());
            assertEquals(2L, other.call("BF.CARD", "fresh"));
        }
    }

    @Test
    void aProtocolErrorReadWhileWaitingIsAnsweredAfterTheCommandsBeforeIt() throws IOException
    {
        try (RespClient creator = server.client())
        {
            final FilterStore.Lease held = server.server.store().leaseAll();
            try
            {
                creator.sendRaw(concat(RespClient.encode("BF.ADD", "fresh", "a"), RespClient.encode("PING"),
                    "*1\r\n:5\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                assertEquals("PONG", ping());
                assertFalse(creator.replyArrived(), "a reply overtook the creation of its filter");
            }
            finally
            {
                held.close();
            }
            assertEquals(1L, creator.read());
            assertEquals("PONG", creator.read());
            assertEquals("-ERR Protocol error: expected '$'", creator.read());
            assertTrue(creator.closedByServer());
        }
    }

    private String ping() throws IOException
    {
        try (RespClient other = server.client())
        {
            return (String)other.call("PING");
        }
    }

    private static byte[] concat(final byte[]... parts)
    {
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
