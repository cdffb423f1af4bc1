package io.ddf.ingest.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HELLO 3 and the RESP3 reply shapes of RedisBloom's RESP3 flow (booleans for BF.ADD/EXISTS, arrays of booleans
 * for BF.MADD/MEXISTS, an integer for BF.CARD, a map for BF.INFO), Redis's (maps for HELLO and CONFIG GET,
 * verbatim strings for INFO and CLIENT INFO, {@code _} for null), and HELLO 2 back to RESP2 on the same connection.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class Resp3Test
{
    @TempDir
    static Path dir;
    static TestServer server;
    static TestServer locked;

    @BeforeAll
    static void start()
    {
        server = new TestServer(dir.resolve("data"), c -> { });
        locked = new TestServer(dir.resolve("locked"), c -> c.requirePass = "s3cret");
    }

    @AfterAll
    static void stop()
    {
        server.close();
        locked.close();
    }

    @Test
    void hello3SwitchesTheConnectionToResp3AndHello2Back() throws IOException
    {
        try (RespClient c = new RespClient(server.port()).typed())
        {
            final Map<?, ?> hello = assertInstanceOf(Map.class, c.call("HELLO", "3"));
            assertEquals(3L, hello.get("proto"));
            assertEquals("redis", hello.get("server"));
            assertInstanceOf(Long.class, hello.get("id"));
            // the bf module, as a Redis with RedisBloom 2.4.23 names it (tools look for it there)
            assertEquals(List.of(java.util.Map.of("name", "bf", "ver", 20423L, "path", "ddf (built in)", "args",
                List.of())), hello.get("modules"));
            assertEquals(Boolean.TRUE, c.call("BF.ADD", "r3", "item"));
            assertEquals(Boolean.FALSE, c.call("BF.ADD", "r3", "item"));
            assertEquals(1L, c.call("BF.CARD", "r3"));
            assertEquals(Boolean.TRUE, c.call("BF.EXISTS", "r3", "item"));
            assertEquals(Boolean.FALSE, c.call("BF.EXISTS", "r3", "other"));
            assertEquals(Boolean.FALSE, c.call("BF.EXISTS", "nosuch", "other"));
            assertEquals(List.of(true, true, false), c.call("BF.MADD", "r3", "item2", "item3", "item"));
            assertEquals(List.of(true, false), c.call("BF.MEXISTS", "r3", "item2", "nope"));
            assertEquals(List.of(false, false), c.call("BF.MEXISTS", "nosuch", "a", "b"));
            final Map<?, ?> info = assertInstanceOf(Map.class, c.call("BF.INFO", "r3"));
            assertEquals(3L, info.get("Number of items inserted"));
            assertTrue(info.containsKey("Capacity") && info.containsKey("Size") &&
                info.containsKey("Number of filters"), info::toString);
            assertEquals(2L, info.get("Expansion rate"), "RedisBloom's, the default filter grows");
            assertEquals(List.of(3L), c.call("BF.INFO", "r3", "ITEMS"));
            assertEquals(RespClient.NULL, c.call("CLIENT", "GETNAME"));
            final RespClient.Verbatim text = assertInstanceOf(RespClient.Verbatim.class, c.call("INFO"));
            assertEquals("txt", text.format());
            assertTrue(text.text().contains("# Server"), text::text);
            final RespClient.Verbatim me = assertInstanceOf(RespClient.Verbatim.class, c.call("CLIENT", "INFO"));
            assertTrue(me.text().contains(" resp=3 "), me::text);
            final Map<?, ?> config = assertInstanceOf(Map.class, c.call("CONFIG", "GET", "databases"));
            assertEquals(Map.of("databases", "1"), config);
            assertEquals("-ERR not found", c.call("BF.INFO", "nosuch"));
            final Map<?, ?> docs = assertInstanceOf(Map.class, c.call("COMMAND", "DOCS", "bf.add"));
            assertEquals("bf", assertInstanceOf(Map.class, docs.get("bf.add")).get("group"));
            assertEquals(List.of(RespClient.NULL), c.call("COMMAND", "INFO", "no-such"));
            assertInstanceOf(List.class, c.call("HELLO", "2"));
            assertEquals(0L, c.call("BF.ADD", "r3", "item"));
            assertEquals(List.of(1L, 0L), c.call("BF.MEXISTS", "r3", "item", "nope"));
            assertEquals(RespClient.NIL_BULK, c.call("CLIENT", "GETNAME"));
            assertInstanceOf(List.class, c.call("BF.INFO", "r3"));
            assertInstanceOf(String.class, c.call("INFO", "server"));
        }
    }

    @Test
    void aCommandPipelinedBeforeHelloKeepsTheProtocolItWasSentIn() throws IOException
    {
        try (RespClient c = new RespClient(server.port()).typed())
        {
            final String[] madd = new String[502];
            madd[0] = "BF.MADD";
            madd[1] = "before";
            for (int i = 0; i < 500; i++)
            {
                madd[i + 2] = "x" + i;
            }
            c.call("BF.ADD", "before", "made");
            c.send(madd);
            c.send("BF.ADD", "before", "made");
            c.send("HELLO", "3");
            c.send("BF.ADD", "before", "made");
            assertEquals(500, assertInstanceOf(List.class, c.read()).size());
            assertEquals(0L, c.read());
            assertInstanceOf(Map.class, c.read());
            assertEquals(Boolean.FALSE, c.read());
        }
    }

    @Test
    void helloRefusesOtherVersionsAndTakesAuthAndSetname() throws IOException
    {
        try (RespClient c = new RespClient(locked.port()).typed())
        {
            assertTrue(((String)c.call("HELLO", "4")).startsWith("-NOPROTO"));
            assertTrue(((String)c.call("HELLO", "x")).startsWith("-ERR Protocol version is not an integer"));
            assertTrue(((String)c.call("HELLO", "3")).startsWith("-NOAUTH"));
            assertTrue(((String)c.call("HELLO", "3", "AUTH", "default", "wrong")).startsWith("-WRONGPASS"));
            // refused: still RESP2, still not authenticated
            assertTrue(((String)c.call("BF.ADD", "k", "a")).startsWith("-NOAUTH"));
            final Map<?, ?> hello = assertInstanceOf(Map.class,
                c.call("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "my-app"));
            assertEquals(3L, hello.get("proto"));
            assertEquals("my-app", c.call("CLIENT", "GETNAME"));
            assertEquals(Boolean.TRUE, c.call("BF.ADD", "k", "a"));
            assertTrue(((String)c.call("HELLO", "3", "SETNAME", "has space")).startsWith("-ERR Client names"));
            assertEquals("my-app", c.call("CLIENT", "GETNAME"));
        }
    }
}
