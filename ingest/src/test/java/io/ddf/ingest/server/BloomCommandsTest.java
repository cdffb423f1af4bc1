package io.ddf.ingest.server;

import io.ddf.ingest.commands.redisbloom.FixedSizeReserve;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BF.*, as RedisBloom 2.4 answers them on the filter a user gets by default (one that grows), and BF.INSERT.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BloomCommandsTest extends SharedServerTestBase
{
    @Test
    void bloomCommandsAnswerLikeRedisBloom() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("PONG", c.call("PING"));
            assertEquals("hi", c.call("PING", "hi"));
            assertEquals("OK", c.call("BF.RESERVE", "cmds", "0.001", "10000"));
            assertEquals("-ERR item exists", c.call("BF.RESERVE", "cmds", "0.001", "10000"));
            assertEquals(1L, c.call("BF.ADD", "cmds", "a"));
            assertEquals(0L, c.call("BF.ADD", "cmds", "a"));
            assertEquals(List.of(0L, 1L, 1L, 0L), c.call("BF.MADD", "cmds", "a", "b", "c", "b"));
            assertEquals(1L, c.call("BF.EXISTS", "cmds", "b"));
            assertEquals(0L, c.call("BF.EXISTS", "cmds", "zz"));
            assertEquals(List.of(1L, 0L, 1L), c.call("BF.MEXISTS", "cmds", "a", "zz", "c"));
            assertEquals(0L, c.call("BF.EXISTS", "missing", "a"));
            assertEquals(List.of(0L, 0L), c.call("BF.MEXISTS", "missing", "a", "b"));
            assertEquals(0L, c.call("EXISTS", "missing"));
            // the default filter grows as RedisBloom's does: its BF.INFO is RedisBloom 2.4's, field for field
            @SuppressWarnings("unchecked")
            final List<Object> info = (List<Object>)c.call("BF.INFO", "cmds");
            assertEquals("Capacity", info.get(0));
            assertEquals(10000L, info.get(1));
            assertEquals("Size", info.get(2));
            assertEquals("Number of filters", info.get(4));
            assertEquals(1L, info.get(5));
            assertEquals("Number of items inserted", info.get(6));
            assertEquals(3L, info.get(7));
            assertEquals("Expansion rate", info.get(8));
            assertEquals(2L, info.get(9));
            assertEquals(List.of(3L), c.call("BF.INFO", "cmds", "ITEMS"));
            assertEquals("-ERR not found", c.call("BF.INFO", "missing"));
            // a missing key is made by BF.ADD, as RedisBloom does: capacity 100, growing from there
            assertEquals(1L, c.call("BF.ADD", "made", "x"));
            assertEquals(List.of(100L), c.call("BF.INFO", "made", "CAPACITY"));
            assertEquals(1L, c.call("DEL", "made", "nosuch"));
            assertEquals(0L, c.call("EXISTS", "made"));
            assertEquals(1L, c.call("BF.ADD", "made", "x"));
        }
    }

    @Test
    void errorsAreRedisStyleAndKeepTheConnection() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("-ERR wrong number of arguments for 'bf.add' command", c.call("BF.ADD", "k"));
            assertEquals("-ERR wrong number of arguments for 'bf.add' command", c.call("bf.add", "k", "a", "b"));
            assertTrue(((String)c.call("FROB", "x")).startsWith("-ERR unknown command 'FROB'"));
            assertEquals("-ERR bad error rate", c.call("BF.RESERVE", "e", "x", "10"));
            // RedisBloom 2.4's words, its trailing space included
            assertEquals("-ERR (0 < error rate range < 1) ", c.call("BF.RESERVE", "e", "1.5", "10"));
            assertEquals("-ERR bad capacity", c.call("BF.RESERVE", "e", "0.1", "ten"));
            assertEquals("-ERR (capacity should be larger than 0)", c.call("BF.RESERVE", "e", "0.1", "0"));
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "nosuch")).startsWith("-ERR unknown filter"));
            // a word that is neither RedisBloom's nor ddf's is ignored, as RedisBloom ignores it
            assertEquals("OK", c.call("BF.RESERVE", "e", "0.1", "10", "bogus", "1"));
            assertEquals(1L, c.call("DEL", "e"));
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "fifo-bloom", "bogus", "1"))
                .startsWith("-ERR unknown parameter"));
            final String notQht = (String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "qht", "max-kicks", "4");
            assertTrue(notQht.startsWith("-ERR") && notQht.contains("max-kicks"), notQht);
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "sqf", "rows", "64"))
                .startsWith("-ERR capacity and error rate do not size KIND sqf"));
            assertEquals("OK", c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "qht", "SEED", "7"));
            @SuppressWarnings("unchecked")
            final List<Object> info = (List<Object>)c.call("BF.INFO", "e");
            assertTrue(info.contains("qht") && info.contains("seed") && info.contains("7"), info::toString);
            final String tooLong = "x".repeat(server.config.maxItemBytes + 1);
            assertTrue(((String)c.call("BF.ADD", "e", tooLong)).startsWith("-ERR item of"));
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void bfInsertCreatesWithItsOptionsOrRefusesWithRedisBloomsErrors() throws IOException
    {
        // BF.INSERT on ddf's fixed-size filters (--past-capacity forget); on the default ones: RedisBloomFlowIT
        try (TestServer forgetting = new TestServer(dir.resolve("forgetting"), TestServer::forget);
            RespClient c = forgetting.client())
        {
            assertEquals("-ERR not found", c.call("BF.INSERT", "b1", "NOCREATE", "ITEMS", "a"));
            assertEquals(0L, c.call("EXISTS", "b1"));
            assertEquals(List.of(1L, 1L, 0L), c.call("BF.INSERT", "b1", "CAPACITY", "5000", "ERROR", "0.001",
                "ITEMS", "a", "b", "a"));
            assertEquals(List.of(5000L), c.call("BF.INFO", "b1", "CAPACITY"));
            assertEquals(List.of(0L, 1L), c.call("BF.INSERT", "b1", "NOCREATE", "ITEMS", "b", "c"));
            // RedisBloom takes NONSCALING beside EXPANSION in BF.INSERT; a fixed-size filter takes no expansion
            assertEquals("-" + FixedSizeReserve.NO_EXPANSION, c.call("BF.INSERT", "b2", "NONSCALING", "EXPANSION",
                "2", "ITEMS", "a"));
            assertEquals("-" + FixedSizeReserve.NO_EXPANSION, c.call("BF.INSERT", "b2", "EXPANSION", "2", "ITEMS",
                "a"));
            assertEquals("-Bad capacity", c.call("BF.INSERT", "b2", "CAPACITY", "x", "ITEMS", "a"));
            assertEquals("-Bad argument received", c.call("BF.INSERT", "b2", "ERROR", "2", "ITEMS", "a"));
            assertTrue(String.valueOf(c.call("BF.INSERT", "b2", "CAPACITY", "100")).startsWith("-ERR wrong number"));
            assertEquals(0L, c.call("EXISTS", "b2"));
            assertEquals(List.of(1L), c.call("BF.INSERT", "b3", "NONSCALING", "ITEMS", "a"));
            assertEquals(List.of(1_000_000L), c.call("BF.INFO", "b3", "CAPACITY"), "the server's default capacity");
        }
    }
}
