package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI, EXEC and DISCARD, as Redis answers them: commands queued in order, one reply for EXEC, a refusal while\nqueuing aborting the transaction, and a command that waits for its filter holding the later ones.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionCommandsTest extends SharedServerTestBase
{
    @Test
    void multiQueuesAndExecRunsThemInOrderAsOneReply() throws IOException
    {
        try (RespClient c = server.client(); RespClient other = server.client())
        {
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "tx", "a"));
            assertEquals("QUEUED", c.call("BF.MADD", "tx", "a", "b"));
            assertEquals("QUEUED", c.call("BF.CARD", "tx"));
            assertEquals("QUEUED", c.call("BF.RESERVE", "tx", "0.01", "100"));
            assertEquals("-ERR MULTI calls can not be nested", c.call("MULTI"));
            // nothing queued has run
            assertEquals(0L, other.call("EXISTS", "tx"));
            assertEquals(List.of(1L, List.of(0L, 1L), 2L, "-ERR item exists"), c.call("EXEC"));
            assertEquals(2L, other.call("BF.CARD", "tx"));
            assertEquals("-ERR EXEC without MULTI", c.call("EXEC"));
            assertEquals("-ERR DISCARD without MULTI", c.call("DISCARD"));
            assertEquals("OK", c.call("MULTI"));
            assertEquals(List.of(), c.call("EXEC"));
        }
    }

    @Test
    void discardAndAQueuingErrorRunNothing() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "discarded", "a"));
            assertEquals("OK", c.call("DISCARD"));
            assertEquals(0L, c.call("EXISTS", "discarded"));
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "aborted", "a"));
            assertTrue(((String)c.call("NOSUCH", "x")).startsWith("-ERR unknown command"));
            assertTrue(((String)c.call("BF.ADD", "aborted")).startsWith("-ERR wrong number of arguments"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.", c.call("EXEC"));
            assertEquals(0L, c.call("EXISTS", "aborted"));
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void execThatCreatesAFilterRunsBeforeTheCommandsPipelinedAfterIt() throws IOException
    {
        try (RespClient c = server.client())
        {
            final java.io.ByteArrayOutputStream requests = new java.io.ByteArrayOutputStream();
            requests.writeBytes(RespClient.encode("MULTI"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "b"));
            requests.writeBytes(RespClient.encode("BF.EXISTS", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("EXEC"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("BF.CARD", "made-in-tx"));
            c.sendRaw(requests.toByteArray());
            assertEquals("OK", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals(List.of(1L, 1L, 1L), c.read());
            assertEquals(0L, c.read());
            assertEquals(2L, c.read());
        }
    }
}
