package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29's memory target through the daemon: {@code BF.RESERVE key error_rate capacity WINDOW seconds [SLICES L]
 * KIND aged-cuckoo}, the aged cuckoo table, served by RedisBloom's commands as a fifo-bloom with a window is
 * ({@link WindowCommandsTest}); its promise, a restart with time passing while stopped, and its refusals. Production
 * defaults, the clock injected.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgedWindowCommandsTest
{
    @TempDir
    Path dir;
    private final WindowCommandsTest.TestClock clock = new WindowCommandsTest.TestClock();

    private TestServer server(final Consumer<ServerConfig> more)
    {
        return new TestServer(dir.resolve("data"), config ->
        {
            config.clock = clock;
            more.accept(config);
        });
    }

    @SuppressWarnings("unchecked")
    private static Object field(final Object info, final String name)
    {
        final List<Object> fields = (List<Object>)info;
        final int at = fields.indexOf(name);
        assertTrue(at >= 0 && at % 2 == 0, () -> name + " not in " + fields);
        return fields.get(at + 1);
    }

    @Test
    void everyRedisBloomCommandWorksOnAnAgedKey() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "w", "0.01", "1000", "KIND", "aged-cuckoo", "WINDOW", "60",
                "SLICES", "4"));
            assertEquals(1L, c.call("BF.ADD", "w", "a"));
            assertEquals(0L, c.call("BF.ADD", "w", "a"));
            assertEquals(List.of(1L, 1L, 0L), c.call("BF.MADD", "w", "b", "c", "a"));
            assertEquals(List.of(1L, 0L, 1L), c.call("BF.MEXISTS", "w", "a", "zz", "c"));
            assertEquals(List.of(1L, 0L), c.call("BF.INSERT", "w", "NOCREATE", "ITEMS", "d", "a"));
            assertEquals(4L, c.call("BF.CARD", "w"));
            assertEquals("MBbloom--", c.call("TYPE", "w"));
            final Object info = c.call("BF.INFO", "w");
            assertEquals(1000L, field(info, "Capacity"));
            assertEquals("aged-cuckoo", field(info, "kind"));
            assertEquals(60L, field(info, "window-seconds"));
            assertEquals("15s", field(info, "slice"));
            assertEquals("1m15s", field(info, "forgotten-by"));
            assertEquals(List.of(60L), c.call("BF.INFO", "w", "WINDOW"));
            assertEquals(List.of(4L), c.call("BF.INFO", "w", "SLICES"));
            assertEquals(List.of(1000L), c.call("BF.INFO", "w", "CAPACITY"));

            clock.advance(Duration.ofSeconds(59));
            assertEquals(List.of(1L, 1L, 1L, 1L), c.call("BF.MEXISTS", "w", "a", "b", "c", "d"));
            clock.advance(Duration.ofSeconds(17));
            assertEquals(List.of(0L, 0L, 0L, 0L), c.call("BF.MEXISTS", "w", "a", "b", "c", "d"));
            assertEquals(1L, c.call("BF.ADD", "w", "a"), "forgotten, so new again");
            assertEquals(1L, c.call("DEL", "w"));
            assertEquals(0L, c.call("EXISTS", "w"));
        }
    }

    /**
     * Items added one every 7 s over ten windows at 1 % (the default slices: 14, what the stamps of eight-slot buckets
     * allow), each checked at every step: present
     * while younger than the window, absent (but for false positives) once older than window + window / L.
     */
    @Test
    void theWindowsPromiseHoldsThroughTheDaemon() throws IOException
    {
        final long window = 60_000;
        final long forgottenBy = window + window / 14;
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "p", "0.01", "100", "WINDOW", "60", "KIND", "aged-cuckoo"));
            assertEquals(List.of(14L), c.call("BF.INFO", "p", "SLICES"));
            final List<Long> added = new ArrayList<>();
            int missed = 0;
            int remembered = 0;
            int forgottenChecks = 0;
            int falseAdds = 0;
            for (int i = 0; i < 90; i++)
            {
                // a new item answers 0 only as a false positive (the filter's seed is its own): it was not added,
                // so it is not checked (-1)
                final boolean isNew = c.call("BF.ADD", "p", "item-" + i).equals(1L);
                falseAdds += isNew ? 0 : 1;
                added.add(isNew ? clock.millis() : -1);
                final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", "p"));
                for (int j = 0; j <= i; j++)
                {
                    args.add("item-" + j);
                }
                @SuppressWarnings("unchecked")
                final List<Object> present = (List<Object>)c.call(args.toArray(String[]::new));
                for (int j = 0; j <= i; j++)
                {
                    if (added.get(j) < 0)
                    {
                        continue;
                    }
                    final long age = clock.millis() - added.get(j);
                    if (age < window && !present.get(j).equals(1L))
                    {
                        missed++;
                    }
                    if (age >= forgottenBy)
                    {
                        forgottenChecks++;
                        remembered += present.get(j).equals(1L) ? 1 : 0;
                    }
                }
                clock.advance(Duration.ofSeconds(7));
            }
            assertEquals(0, missed, "items missed inside their window");
            assertTrue(falseAdds <= 4, falseAdds + " of 90 new items answered 0 (false positives at 1 %)");
            // at most 2 x 4 x live load / 2^10 per check: well under 2 % of the thousands of checks
            assertTrue(forgottenChecks > 2000 && remembered <= forgottenChecks / 50,
                remembered + " of " + forgottenChecks + " answered past window + window / L");
        }
    }

    @Test
    void aRestartKeepsTheWindowAndExpiresWhatPassedWhileStopped() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "r", "0.01", "1000", "KIND", "aged-cuckoo", "WINDOW", "3600",
                "SLICES", "4"));
            assertEquals(1L, c.call("BF.ADD", "r", "old"));
            clock.advance(Duration.ofMinutes(50));
            assertEquals(1L, c.call("BF.ADD", "r", "newer"));
        }
        // stopped for half an hour: "old" (80 min) is past window + window / L (75 min), "newer" (30 min) is not
        clock.advance(Duration.ofMinutes(30));
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals(List.of(0L, 1L), c.call("BF.MEXISTS", "r", "old", "newer"));
            assertEquals(List.of(3600L), c.call("BF.INFO", "r", "WINDOW"));
            assertEquals("aged-cuckoo", field(c.call("BF.INFO", "r"), "kind"));
            clock.advance(Duration.ofMinutes(46));
            assertEquals(0L, c.call("BF.EXISTS", "r", "newer"), "76 min after its add");
        }
    }

    @Test
    void wrongUsesAreRefusedClearlyAndMakeNothing() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            refused(c, "KIND aged-cuckoo keeps a window of time: give WINDOW seconds", "BF.RESERVE", "a", "0.01",
                "1000", "KIND", "aged-cuckoo");
            refused(c, "give slices at most", "BF.RESERVE", "a", "0.001", "1000", "KIND", "aged-cuckoo", "WINDOW",
                "60", "SLICES", "16");
            refused(c, "hold at most 13 fingerprint bits", "BF.RESERVE", "a", "0.0001", "1000", "KIND",
                "aged-cuckoo", "WINDOW", "60");
            refused(c, "GENERATIONS goes without WINDOW", "BF.RESERVE", "a", "0.01", "1000", "KIND", "aged-cuckoo",
                "WINDOW", "60", "GENERATIONS", "4");
            refused(c, "capacity and error rate size the filter", "BF.RESERVE", "a", "0.01", "1000", "KIND",
                "aged-cuckoo", "WINDOW", "60", "MEMORY-BITS", "100000");
            assertEquals(0L, c.call("EXISTS", "a"));
            assertEquals(0L, c.call("DBSIZE"));
            // without SLICES the error rate alone makes one: as many slices as its stamps allow (2 at 0.1 %)
            assertEquals("OK", c.call("BF.RESERVE", "fine", "0.001", "1000", "KIND", "aged-cuckoo", "WINDOW", "60"));
            assertEquals(List.of(2L), c.call("BF.INFO", "fine", "SLICES"));
        }
    }

    private static void refused(final RespClient c, final String part, final String... command) throws IOException
    {
        final Object reply = c.call(command);
        assertTrue(reply.toString().startsWith("-ERR") && reply.toString().contains(part), () ->
            String.join(" ", command) + " -> " + reply);
    }
}
