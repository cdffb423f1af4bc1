package io.ddf.ingest.server;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one check of {@code --max-item-bytes} a client sees, run by the suites of each kind of filter. */
final class ItemLimits
{
    private ItemLimits()
    {
    }

    /**
     * Every command that takes items refuses one longer than {@code --max-item-bytes} with the same error, adds
     * nothing, makes no filter, and the connection goes on.
     *
     * @param server the daemon, on the configuration under test.
     */
    static void everyItemCommandRefusesAnItemOverTheLimit(final TestServer server) throws IOException
    {
        final int max = server.config.maxItemBytes;
        final String tooLong = "y".repeat(max + 1);
        final String error = "-ERR item of " + (max + 1) + " bytes is longer than the " + max + "-byte limit";
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("CF.RESERVE", "cf-long", "1000"));
            assertEquals(1L, c.call("BF.ADD", "bf-long", "short"));
            final List<List<String>> commands = List.of(List.of("CF.ADDNX", "cf-long", tooLong),
                List.of("CF.ADD", "cf-long", tooLong), List.of("CF.INSERT", "cf-long", "ITEMS", "a", tooLong),
                List.of("CF.INSERTNX", "cf-long", "ITEMS", "a", tooLong), List.of("CF.EXISTS", "cf-long", tooLong),
                List.of("CF.MEXISTS", "cf-long", "a", tooLong), List.of("CF.DEL", "cf-long", tooLong),
                List.of("CF.COUNT", "cf-long", tooLong), List.of("CF.ADDNX", "cf-long-new", tooLong),
                List.of("BF.ADD", "bf-long", tooLong), List.of("BF.MADD", "bf-long", "a", tooLong),
                List.of("BF.EXISTS", "bf-long", tooLong), List.of("BF.MEXISTS", "bf-long", "a", tooLong),
                List.of("BF.INSERT", "bf-long", "ITEMS", "a", tooLong), List.of("BF.ADD", "bf-long-new", tooLong));
            for (final List<String> command : commands)
            {
                assertEquals(error, c.call(command.toArray(String[]::new)), command.get(0) + " " + command.get(1));
                assertEquals("PONG", c.call("PING"), "the connection goes on after " + command.get(0));
            }
            // nothing was added by the refused commands, and no filter was made for them
            assertEquals(List.of(0L, 0L), c.call("CF.MEXISTS", "cf-long", "a", "b"));
            assertEquals(List.of(1L, 0L), c.call("BF.MEXISTS", "bf-long", "short", "a"));
            assertEquals(0L, c.call("EXISTS", "cf-long-new", "bf-long-new"));
        }
    }
}
