package io.ddf.ingest.server;

import io.ddf.ingest.commands.redisbloom.FixedSizeReserve;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.resp.RespError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, the daemon: {@code BF.RESERVE key error_rate capacity WINDOW seconds [SLICES L]}, RedisBloom's commands on
 * such a key, the age-partitioned proposal's APBF.* commands, {@code serve --default-window}, a restart with time
 * passing while the daemon is stopped, and the refusals. Every daemon here runs the production defaults, its clock
 * injected ({@link ServerConfig#clock}) so that a window of a minute or an hour passes at once.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WindowCommandsTest
{
    /** A wall clock the test moves. */
    static final class TestClock implements InstantSource
    {
        private final AtomicLong millis = new AtomicLong(1_800_000_000_000L);

        @Override
        public Instant instant()
        {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public long millis()
        {
            return millis.get();
        }

        void advance(final Duration by)
        {
            millis.addAndGet(by.toMillis());
        }
    }

    @TempDir
    Path dir;
    private final TestClock clock = new TestClock();

    private TestServer server(final Consumer<ServerConfig> more)
    {
        return new TestServer(dir.resolve("data"), config ->
        {
            config.clock = clock;
            more.accept(config);
        });
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(final Object reply)
    {
        assertTrue(reply instanceof List, () -> "not an array: " + reply);
        return (List<Object>)reply;
    }

    /** @return the value after a field's name in BF.INFO's or APBF.INFO's reply. */
    private static Object field(final Object info, final String name)
    {
        final List<Object> fields = list(info);
        final int at = fields.indexOf(name);
        assertTrue(at >= 0 && at % 2 == 0, () -> name + " not in " + fields);
        return fields.get(at + 1);
    }

    @Test
    void everyRedisBloomCommandWorksUnchangedOnAKeyWithAWindow() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "w", "0.01", "1000", "WINDOW", "60", "SLICES", "2"));
            assertEquals("-ERR item exists", c.call("BF.RESERVE", "w", "0.01", "1000", "WINDOW", "60"));
            assertEquals(1L, c.call("BF.ADD", "w", "a"));
            assertEquals(0L, c.call("BF.ADD", "w", "a"));
            assertEquals(List.of(1L, 1L, 0L), c.call("BF.MADD", "w", "b", "c", "a"));
            assertEquals(1L, c.call("BF.EXISTS", "w", "a"));
            assertEquals(0L, c.call("BF.EXISTS", "w", "zz"));
            assertEquals(List.of(1L, 0L, 1L), c.call("BF.MEXISTS", "w", "a", "zz", "c"));
            assertEquals(List.of(1L, 0L), c.call("BF.INSERT", "w", "NOCREATE", "ITEMS", "d", "a"));
            assertEquals(4L, c.call("BF.CARD", "w"));
            assertEquals("MBbloom--", c.call("TYPE", "w"));
            final Object info = c.call("BF.INFO", "w");
            assertEquals(1000L, field(info, "Capacity"));
            assertEquals(4L, field(info, "Number of filters"), "2 x SLICES generations");
            assertEquals(4L, field(info, "Number of items inserted"));
            assertEquals(60L, field(info, "window-seconds"));
            assertEquals("30s", field(info, "slice"));
            assertEquals("1m30s", field(info, "forgotten-by"));
            assertEquals("2", field(info, "slices"));
            assertEquals(0L, field(info, "recycled-early"));
            assertEquals(List.of(60L), c.call("BF.INFO", "w", "WINDOW"));
            assertEquals(List.of(2L), c.call("BF.INFO", "w", "SLICES"));
            assertEquals(List.of(1000L), c.call("BF.INFO", "w", "CAPACITY"));

            // the window passes: remembered for 60 s after the first add, forgotten by 90 s
            clock.advance(Duration.ofSeconds(59));
            assertEquals(List.of(1L, 1L, 1L, 1L), c.call("BF.MEXISTS", "w", "a", "b", "c", "d"));
            assertEquals(0L, c.call("BF.ADD", "w", "a"), "a duplicate does not extend its window");
            clock.advance(Duration.ofSeconds(32));
            assertEquals(List.of(0L, 0L, 0L, 0L), c.call("BF.MEXISTS", "w", "a", "b", "c", "d"));
            assertEquals(1L, c.call("BF.ADD", "w", "a"), "forgotten, so new again");
            final Object later = c.call("BF.INFO", "w");
            assertTrue((Long)field(later, "turns-by-time") >= 2, later::toString);
            assertTrue((Long)field(later, "expired") >= 1, later::toString);

            assertEquals(1L, c.call("DEL", "w"));
            assertEquals(0L, c.call("EXISTS", "w"));
            assertEquals(0L, c.call("BF.EXISTS", "w", "a"));
        }
    }

    /**
     * The window's promise through the daemon: items added one every 7 s over ten windows, each checked at every
     * step: present while younger than the window (no miss allowed), absent once older than window + window / L (but
     * for false positives at the error rate); then twice the capacity within a window, counted as recycled early.
     */
    @Test
    void theWindowsPromiseHoldsThroughTheDaemon() throws IOException
    {
        final long window = 60_000;
        final long forgottenBy = window + window / 3;
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "p", "0.001", "100", "WINDOW", "60", "SLICES", "3"));
            final List<Long> added = new ArrayList<>();
            int missed = 0;
            int remembered = 0;
            int forgottenChecks = 0;
            for (int i = 0; i < 90; i++)
            {
                assertEquals(1L, c.call("BF.ADD", "p", "item-" + i));
                added.add(clock.millis());
                final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", "p"));
                for (int j = 0; j <= i; j++)
                {
                    args.add("item-" + j);
                }
                final List<Object> present = list(c.call(args.toArray(String[]::new)));
                for (int j = 0; j <= i; j++)
                {
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
            assertTrue(forgottenChecks > 2000 && remembered <= 1 + forgottenChecks / 100,
                remembered + " of " + forgottenChecks + " answered past window + window / L");
            assertEquals(0L, field(c.call("BF.INFO", "p"), "recycled-early"));

            // twice the capacity within one window: the oldest are forgotten early, and counted
            final List<String> burst = new ArrayList<>(List.of("BF.MADD", "p"));
            for (int i = 0; i < 200; i++)
            {
                burst.add("burst-" + i);
            }
            c.call(burst.toArray(String[]::new));
            assertTrue((Long)field(c.call("BF.INFO", "p"), "recycled-early") > 0);
        }
    }

    @Test
    void aRestartKeepsTheWindowAndLogsWhatExpiredWhileStopped() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "r", "0.001", "1000", "WINDOW", "3600", "SLICES", "4"));
            assertEquals(1L, c.call("BF.ADD", "r", "old"));
            clock.advance(Duration.ofMinutes(50));
            assertEquals(1L, c.call("BF.ADD", "r", "newer"));
        }
        // stopped for half an hour: "old" (80 min) is past window + window / L (75 min), "newer" (30 min) is not
        clock.advance(Duration.ofMinutes(30));
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertTrue(daemon.log().contains("ddf: filter 'r' (window 1h, 4 slices): "), daemon.log());
            assertTrue(daemon.log().matches("(?s).*filter 'r' \\(window 1h, 4 slices\\): [1-9]\\d* generations? " +
                "expired while closed \\(the filter's time was .*, \\d+m before the open\\).*"), daemon.log());
            assertEquals(List.of(0L, 1L), c.call("BF.MEXISTS", "r", "old", "newer"));
            assertEquals(List.of(3600L), c.call("BF.INFO", "r", "WINDOW"));
            assertEquals(List.of(4L), c.call("BF.INFO", "r", "SLICES"));
            assertTrue((Long)field(c.call("BF.INFO", "r"), "expired-at-open") > 0);
            clock.advance(Duration.ofMinutes(46));
            assertEquals(0L, c.call("BF.EXISTS", "r", "newer"), "76 min after its add");
        }
    }

    @Test
    void badParametersAreRefusedClearlyAndMakeNothing() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            refused(c, "WINDOW must be a positive", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "0");
            refused(c, "WINDOW must be a positive", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "-60");
            refused(c, "WINDOW must be a positive", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "soon");
            refused(c, "window needs a value", "BF.RESERVE", "b", "0.01", "1000", "WINDOW");
            refused(c, "SLICES must be a whole number at least 1", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "60",
                "SLICES", "0");
            refused(c, "SLICES must be a whole number at least 1", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "60",
                "SLICES", "-2");
            refused(c, "slices must be in 1..", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "60", "SLICES",
                "100000");
            refused(c, "SLICES goes with WINDOW", "BF.RESERVE", "b", "0.01", "1000", "SLICES", "2");
            refused(c, "which fifo-bloom and aged-cuckoo keep (leave KIND out, or KIND fifo-bloom or aged-cuckoo); " +
                "KIND cuckoo has none",
                "BF.RESERVE", "b", "0.01", "1000", "KIND", "cuckoo", "WINDOW", "60");
            refused(c, "KIND qht has none", "BF.RESERVE", "b", "0.01", "1000", "KIND", "qht", "WINDOW", "60");
            refused(c, "makes a filter that grows, which has no window of time", "BF.RESERVE", "b", "0.01", "1000",
                "KIND", "scaling", "WINDOW", "60");
            refused(c, "GENERATIONS goes without WINDOW", "BF.RESERVE", "b", "0.01", "1000", "WINDOW", "60",
                "GENERATIONS", "4");
            refused(c, "time-source cannot be given beside WINDOW", "BF.RESERVE", "b", "0.01", "1000", "WINDOW",
                "60", "TIME-SOURCE", "1");
            assertEquals("-" + FixedSizeReserve.NO_EXPANSION, c.call("BF.RESERVE", "b", "0.01", "1000", "WINDOW",
                "60", "EXPANSION", "2"));
            refused(c, "a cuckoo filter has no window of time", "CF.RESERVE", "b", "1000", "WINDOW", "60");
            // RedisBloom's own checks come first, with its texts
            assertEquals("-ERR (capacity should be larger than 0)", c.call("BF.RESERVE", "b", "0.01", "0", "WINDOW",
                "60"));
            assertEquals(0L, c.call("EXISTS", "b"), "nothing was made");

            // a cuckoo key: BF.RESERVE ... WINDOW and the BF.* commands refuse it
            assertEquals("OK", c.call("CF.RESERVE", "ck", "1000"));
            assertEquals("-" + RespError.WRONGTYPE, c.call("BF.RESERVE", "ck", "0.01", "1000", "WINDOW", "60"));
            assertEquals("-" + RespError.WRONGTYPE, c.call("BF.ADD", "ck", "a"));
            assertEquals("-" + RespError.WRONGTYPE, c.call("APBF.ADD", "ck", "a"));
            assertEquals("MBbloomCF", c.call("TYPE", "ck"));
            assertTrue(daemon.log().contains("ddf: refused filter 'b': ERR WINDOW must be a positive"), daemon.log());
        }
    }

    private static void refused(final RespClient c, final String words, final String... command) throws IOException
    {
        final Object reply = c.call(command);
        assertTrue(reply instanceof String s && s.startsWith("-ERR") && s.contains(words),
            () -> String.join(" ", command) + " answered " + reply + ", not an error saying '" + words + "'");
    }

    @Test
    void defaultWindowGivesTheKeysBfAddMakesAWindow() throws IOException
    {
        try (TestServer daemon = server(c -> c.defaultWindow = Duration.ofMinutes(1)); RespClient c = daemon.client())
        {
            assertEquals(1L, c.call("BF.ADD", "made", "a"));
            assertEquals(List.of(60L), c.call("BF.INFO", "made", "WINDOW"));
            assertEquals(List.of(1_000_000L), c.call("BF.INFO", "made", "CAPACITY"), "--default-capacity's");
            assertEquals(List.of(1L, 0L), c.call("BF.MADD", "made2", "x", "x"));
            assertEquals(List.of(60L), c.call("BF.INFO", "made2", "WINDOW"));
            assertEquals(List.of(1L), c.call("BF.INSERT", "made3", "CAPACITY", "5000", "ITEMS", "y"));
            assertEquals(List.of(5000L), c.call("BF.INFO", "made3", "CAPACITY"));
            assertEquals(List.of(60L), c.call("BF.INFO", "made3", "WINDOW"));
            clock.advance(Duration.ofSeconds(91));
            assertEquals(List.of(0L), c.call("BF.MEXISTS", "made", "a"));
            assertEquals(1L, c.call("BF.ADD", "made", "a"));
            // BF.RESERVE makes what it asks for: without options a filter that grows, as before
            assertEquals("OK", c.call("BF.RESERVE", "grows", "0.01", "100"));
            assertEquals(List.of(2L), c.call("BF.INFO", "grows", "EXPANSION"));
            assertEquals("-Invalid information value", c.call("BF.INFO", "grows", "WINDOW"), "RedisBloom's");
            assertTrue(daemon.log().contains("created filter 'made' (fifo-bloom"), daemon.log());
        }
    }

    @Test
    void theAgePartitionedProposalsCommandsMapToAWindowOfTime() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client())
        {
            assertEquals("OK", c.call("APBF.RESERVE", "t", "TIME", "3", "1000", "60"));
            assertEquals("OK", c.call("APBF.RESERVE", "n", "COUNT", "2", "100"));
            assertEquals("OK", c.call("APBF.RESERVE", "first", "2", "1000"), "the proposal's first form: a count");
            assertEquals("-APBF: key already exists", c.call("APBF.RESERVE", "t", "TIME", "3", "1000", "60"));
            assertEquals("-Time span for time filter is 0 or missing", c.call("APBF.RESERVE", "x", "TIME", "3",
                "1000"));
            assertEquals("-Time span for time filter is 0 or missing", c.call("APBF.RESERVE", "x", "TIME", "3",
                "1000", "0"));
            assertEquals("-APBF: invalid time span", c.call("APBF.RESERVE", "x", "TIME", "3", "1000", "-1"));
            assertEquals("-Invalid type for APBF", c.call("APBF.RESERVE", "x", "HOURS", "3", "1000"));
            assertEquals("-APBF: invalid error", c.call("APBF.RESERVE", "x", "TIME", "6", "1000", "60"));
            assertEquals("-APBF: invalid error", c.call("APBF.RESERVE", "x", "COUNT", "0.01", "1000"));
            assertEquals("-APBF: invalid capacity or less than 64", c.call("APBF.RESERVE", "x", "COUNT", "3", "10"));
            refused(c, "COUNT takes no time span", "APBF.RESERVE", "x", "COUNT", "3", "1000", "60");
            assertEquals("-ERR wrong number of arguments for 'apbf.reserve' command", c.call("APBF.RESERVE", "x",
                "2", "1000", "60"));
            assertEquals(0L, c.call("EXISTS", "x"));

            assertEquals(1L, c.call("APBF.ADD", "t", "a"));
            assertEquals(List.of(0L, 1L), c.call("APBF.ADD", "t", "a", "b"));
            assertEquals("OK", c.call("APBF.INSERT", "t", "c", "d"));
            assertEquals(List.of(1L, 0L, 1L), c.call("APBF.EXISTS", "t", "a", "zz", "c"));
            assertEquals(List.of(1L), c.call("APBF.EXISTS", "t", "d"));
            // RedisBloom's commands on the same key, and the other way round
            assertEquals(1L, c.call("BF.EXISTS", "t", "d"));
            assertEquals(List.of(60L), c.call("BF.INFO", "t", "WINDOW"));
            assertEquals(0.001, Double.parseDouble(String.valueOf(field(c.call("BF.INFO", "t"), "target-fpr"))));
            assertEquals(4L, c.call("BF.CARD", "t"));
            assertEquals("OK", c.call("BF.RESERVE", "bw", "0.01", "500", "WINDOW", "120"));
            assertEquals(1L, c.call("APBF.ADD", "bw", "q"));
            assertEquals(List.of(1L), c.call("APBF.EXISTS", "bw", "q"));

            final Object info = c.call("APBF.INFO", "t");
            assertEquals("Age Partitioned Bloom Filter - Time", field(info, "Type"));
            assertEquals(1000L, field(info, "Capacity"));
            assertEquals(3L, field(info, "Error rate"));
            assertEquals(60L, field(info, "Time Span"));
            assertEquals(2L, field(info, "Slices count"));
            assertEquals(5L, field(info, "Inserts count"));
            assertEquals("Age Partitioned Bloom Filter - Count", field(c.call("APBF.INFO", "n"), "Type"));
            assertEquals(0L, field(c.call("APBF.INFO", "n"), "Time Span"));

            assertEquals("-APBF: key does not exist", c.call("APBF.ADD", "missing", "a"));
            assertEquals("-APBF: key does not exist", c.call("APBF.EXISTS", "missing", "a"));
            assertEquals(0L, c.call("EXISTS", "missing"));
            assertEquals(1L, c.call("BF.ADD", "chain", "a"), "the default: a filter that grows");
            assertEquals("-" + RespError.WRONGTYPE, c.call("APBF.EXISTS", "chain", "a"));
            assertEquals("OK", c.call("BF.RESERVE", "q", "0.01", "1000", "KIND", "qht"));
            assertEquals("-" + RespError.WRONGTYPE, c.call("APBF.INSERT", "q", "a"));

            assertEquals(1L, c.call("APBF.ADD", "n", "counted"));
            clock.advance(Duration.ofSeconds(91));
            assertEquals(List.of(0L, 0L), c.call("APBF.EXISTS", "t", "a", "d"));
            assertEquals(List.of(1L), c.call("APBF.EXISTS", "n", "counted"), "a count filter forgets by count only");
        }
    }

    @Test
    void aWindowedKeyIsDumpedAndLoadedWhole() throws IOException
    {
        try (TestServer daemon = server(c -> { }); RespClient c = daemon.client().binary())
        {
            assertEquals("OK", c.call("BF.RESERVE", "src", "0.01", "10000", "WINDOW", "60", "SLICES", "2"));
            final List<String> items = new ArrayList<>(List.of("BF.MADD", "src"));
            for (int i = 0; i < 500; i++)
            {
                items.add("item-" + i);
            }
            c.call(items.toArray(String[]::new));
            clock.advance(Duration.ofSeconds(40));
            assertEquals(1L, c.call("BF.ADD", "src", "later"));
            long iterator = 0;
            final List<List<?>> chunks = new ArrayList<>();
            while (true)
            {
                final List<?> reply = (List<?>)c.call("BF.SCANDUMP", "src", Long.toString(iterator));
                iterator = (Long)reply.get(0);
                if (iterator == 0)
                {
                    break;
                }
                chunks.add(reply);
            }
            for (final List<?> chunk : chunks)
            {
                assertEquals("OK", c.call("BF.LOADCHUNK", "dst", String.valueOf(chunk.get(0)), (String)chunk.get(1)));
            }
            assertEquals(List.of(60L), c.call("BF.INFO", "dst", "WINDOW"));
            items.set(0, "BF.MEXISTS");
            items.add("later");
            items.set(1, "src");
            final Object fromSource = c.call(items.toArray(String[]::new));
            items.set(1, "dst");
            assertEquals(fromSource, c.call(items.toArray(String[]::new)));
            // the loaded filter forgets what the dumped one would: the first items by 90 s, "later" after it
            clock.advance(Duration.ofSeconds(51));
            assertEquals(List.of(0L, 1L), c.call("BF.MEXISTS", "dst", "item-7", "later"));
        }
    }
}
