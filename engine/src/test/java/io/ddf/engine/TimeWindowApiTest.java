package io.ddf.engine;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedder API of a window of time: {@link FilterBuilder#window(Duration)} with {@code subfilters(L)} as its
 * slices, {@link FilterBuilder#eventTime()}, {@link FilterBuilder#clock}, the calls that take an element's time, what
 * {@link DuplicateFilter#timeWindow()}, the parameters and {@link FilterInfo} say; the rule for late and out-of-order
 * event times; and the errors, which name the builder calls.
 */
class TimeWindowApiTest extends EngineTestBase
{
    private static final long T0 = 1_700_000_000_000L;
    private static final Duration HOUR = Duration.ofHours(1);

    @TempDir
    Path dir;

    private static FilterBuilder fifo()
    {
        return Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 10_000L);
    }

    @Test
    void theBuilderSaysWhatDoesNotGoTogether()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fifo().window(Duration.ZERO))
            .getMessage().contains("positive whole number of milliseconds"));
        assertThrows(IllegalArgumentException.class, () -> fifo().window(Duration.ofNanos(1500)));
        assertThrows(IllegalArgumentException.class, () -> fifo().window(Duration.ofSeconds(-1)));
        final String qht = assertThrows(IllegalArgumentException.class, () -> Filters.builder(FilterKind.QHT)
            .window(HOUR).parameters()).getMessage();
        assertTrue(qht.contains("fifo-bloom's") && qht.contains("window(long) with subfilters(L)"), qht);
        final String both = assertThrows(IllegalArgumentException.class, () -> fifo().window(HOUR).window(1000)
            .parameters()).getMessage();
        assertTrue(both.contains("window(Duration) and window(long)") && both.contains("capacity"), both);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fifo().eventTime().parameters()).getMessage()
            .contains("add window(Duration)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fifo().window(HOUR).param("generations", 4L)
            .parameters()).getMessage().contains("subfilters(L)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fifo().window(HOUR).subfilters(25)
            .parameters()).getMessage().contains("slices must be in 1..24"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fifo().window(Duration.ofMillis(3)).subfilters(4)
            .parameters()).getMessage().contains("a slice is at least 1 ms"));
    }

    @Test
    void theParametersAndTheFileSayTheWindow() throws Exception
    {
        final Path file = dir.resolve("w.ddf");
        final FilterParameters parameters = fifo().window(Duration.ofHours(24)).subfilters(4).parameters();
        final Map<String, String> map = parameters.toMap();
        assertEquals("86400000", map.get("window-ms"));
        assertEquals("4", map.get("slices"));
        assertEquals("8", map.get("generations"));
        assertEquals("2500", map.get("items-per-generation"));
        assertTrue(map.get("window").startsWith("1d (4 slices of 6h;"), map.get("window"));
        assertEquals("wall clock", map.get("time"));
        assertTrue(map.get("layout").startsWith("2.1"), map.get("layout"));
        try (DuplicateFilter filter = fifo().window(Duration.ofHours(24)).subfilters(4).file(file).create())
        {
            final TimeWindow window = filter.timeWindow().orElseThrow();
            assertEquals(Duration.ofHours(24), window.window());
            assertEquals(Duration.ofHours(6), window.slice());
            assertEquals(4, window.slices());
            assertFalse(window.eventTime());
            assertEquals(-1, window.filterTimeMillis());
            assertEquals(FilterKind.FIFO_BLOOM, filter.kind());
        }
        final Map<String, String> info = FilterInfo.describe(file);
        assertTrue(info.get("window").startsWith("1d"), info.toString());
        // a count filter shows none of it
        final Map<String, String> count = fifo().parameters().toMap();
        assertFalse(count.containsKey("window-ms") || count.containsKey("window") || count.containsKey("slices"),
            count.toString());
        assertTrue(count.get("layout").startsWith("2.0"));
    }

    @Test
    void openingWithAnotherWindowIsAMismatch()
    {
        final Path file = dir.resolve("m.ddf");
        fifo().window(HOUR).file(file).create().close();
        final FilterFileException e = assertThrows(FilterFileException.class, () -> fifo().window(Duration.ofHours(2))
            .file(file).openOrCreate());
        assertEquals(FilterFileException.Reason.PARAMETER_MISMATCH, e.reason());
        assertThrows(FilterFileException.class, () -> fifo().window(HOUR).subfilters(3).file(file).openOrCreate());
        fifo().window(HOUR).subfilters(2).file(file).openOrCreate().close();
        fifo().file(file).openOrCreate().close(); // asking for no window checks none
    }

    @Test
    void aFilterWithoutAWindowRefusesTimes()
    {
        try (DuplicateFilter filter = fifo().create())
        {
            assertTrue(filter.timeWindow().isEmpty());
            assertThrows(UnsupportedOperationException.class, () -> filter.stream(1L, T0));
            assertThrows(UnsupportedOperationException.class, () -> filter.stream("a", T0));
        }
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).create())
        {
            assertThrows(UnsupportedOperationException.class, () -> filter.stream(1L, T0));
        }
        try (DuplicateFilter filter = fifo().window(HOUR).create())
        {
            assertThrows(IllegalArgumentException.class, () -> filter.stream(1L, -5));
        }
    }

    /**
     * Event time: the filter's time is the highest it was given; a late element is judged against what the filter
     * holds and added as of the filter's time (so a late copy of it is caught); a call without a time moves nothing;
     * a time far ahead expires everything before it; an open applies no time, however late the wall clock is.
     */
    @Test
    void eventTimeFollowsTheElementsAndLateOnesAreJudgedAndKept()
    {
        final ManualClock wall = new ManualClock(T0 + Duration.ofDays(365).toMillis());
        final Path file = dir.resolve("event.ddf");
        try (DuplicateFilter filter = fifo().window(HOUR).eventTime().clock(wall).file(file).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(1L, T0));
            assertEquals(Verdict.UNSEEN, filter.stream(2L, T0 + 50 * 60_000));
            assertEquals(Verdict.DUPLICATE, filter.stream(1L, T0 + 59 * 60_000)); // within its hour
            // late by 40 minutes: judged against what the filter holds, and added
            assertEquals(Verdict.UNSEEN, filter.stream(3L, T0 + 10 * 60_000));
            assertEquals(Verdict.DUPLICATE, filter.stream(3L, T0 + 11 * 60_000));
            // very late (older than the window as the filter's time stands): judged and added as well
            assertEquals(Verdict.UNSEEN, filter.stream(4L, T0 - Duration.ofDays(2).toMillis()));
            assertEquals(Verdict.DUPLICATE, filter.stream(4L, T0));
            // a call without a time leaves the filter's time (the wall clock, a year ahead, is not read)
            assertEquals(Verdict.DUPLICATE, filter.stream(2L));
            assertTrue(filter.timeWindow().orElseThrow().eventTime());
            assertEquals(0, filter.timeWindow().orElseThrow().expired());
            // the late ones are remembered as of the filter's time (T0 + 50 min), not their own: past their own
            // t + W + W/L, still there
            assertEquals(Verdict.DUPLICATE, filter.stream(3L, T0 + 105 * 60_000));
            assertEquals(Verdict.DUPLICATE, filter.stream(4L, T0 + 105 * 60_000));
            // 1, added at T0, is gone by T0 + W + W/L
            assertEquals(Verdict.UNSEEN, filter.stream(1L, T0 + 105 * 60_000));
        }
        try (DuplicateFilter filter = fifo().window(HOUR).eventTime().clock(wall).file(file).openOrCreate())
        {
            final TimeWindow.AtOpen atOpen = filter.timeWindow().orElseThrow().atOpen();
            assertEquals(-1, atOpen.appliedTime());
            assertEquals(0, atOpen.expiredGenerations());
            assertTrue(filter.contains(3L), "an event-time open applies no wall-clock time");
            // a time a day ahead: everything before it has expired
            assertEquals(Verdict.UNSEEN, filter.stream(5L, T0 + Duration.ofDays(1).toMillis()));
            assertFalse(filter.contains(3L));
            assertFalse(filter.contains(4L));
        }
    }

    /** The wall clock set back: the filter's time does not follow, nothing comes back, nothing expires early. */
    @Test
    void aWallClockSetBackHoldsTheFiltersTime()
    {
        final ManualClock wall = new ManualClock(T0);
        try (DuplicateFilter filter = fifo().window(HOUR).clock(wall).create())
        {
            filter.stream(1L);
            wall.set(T0 + 40 * 60_000);
            filter.stream(2L);
            final long time = filter.timeWindow().orElseThrow().filterTimeMillis();
            wall.set(T0 - 10 * 60_000);
            assertEquals(Verdict.DUPLICATE, filter.stream(1L));
            assertEquals(Verdict.DUPLICATE, filter.stream(2L));
            assertEquals(time, filter.timeWindow().orElseThrow().filterTimeMillis());
            wall.set(T0 + 61 * 60_000);
            assertEquals(Verdict.DUPLICATE, filter.stream(2L));
        }
    }

    /**
     * A lookup judges as of the clock even when no add comes to turn the filter: on a filter idle past the newest
     * generation's window (its turn's due time + W), nothing is answered, the newest's items included; before that,
     * they are. Failed before the lookup's rule for the newest (it answered 1 for an hour-old item, forever).
     */
    @Test
    void aLookupOnAnIdleFilterForgetsByTheWindowToo()
    {
        final ManualClock wall = new ManualClock(T0);
        try (DuplicateFilter filter = fifo().window(HOUR).subfilters(2).clock(wall).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(1L));
            wall.set(T0 + 20 * 60_000);
            assertEquals(Verdict.UNSEEN, filter.stream(2L)); // same generation: its turn is due at T0 + 30 min
            wall.set(T0 + 60 * 60_000 - 1);
            assertTrue(filter.contains(1L) && filter.contains(2L), "inside the window");
            wall.set(T0 + 80 * 60_000);
            assertTrue(filter.contains(2L), "element 2's window has not passed");
            wall.set(T0 + 90 * 60_000);
            assertFalse(filter.contains(1L) || filter.contains(2L), "past the newest generation's window");
            assertEquals(Verdict.UNSEEN, filter.stream(2L), "an add turns it: forgotten");
            assertTrue(filter.contains(2L));
            assertFalse(filter.contains(1L));
        }
    }

    @Test
    void aBatchWithTimesIsThatManyCalls()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final int n = 20_000;
        final long[] elements = new long[n];
        final long[] times = new long[n];
        for (int i = 0; i < n; i++)
        {
            elements[i] = random.nextLong(n / 2); // duplicates within and across the window
            times[i] = T0 + i * 600L + random.nextLong(5_000); // out of order by up to 5 s
        }
        final boolean[] batch = new boolean[n];
        final boolean[] single = new boolean[n];
        try (DuplicateFilter a = fifo().window(HOUR).eventTime().seed(7).create();
            DuplicateFilter b = fifo().window(HOUR).eventTime().seed(7).create())
        {
            final int found = a.stream(elements, times, 0, n, batch);
            int count = 0;
            for (int i = 0; i < n; i++)
            {
                single[i] = b.stream(elements[i], times[i]) == Verdict.DUPLICATE;
                count += single[i] ? 1 : 0;
            }
            assertArrayEquals(single, batch);
            assertEquals(count, found);
            assertTrue(a.timeWindow().orElseThrow().turnsByTime() > 0);
            assertEquals(a.timeWindow(), b.timeWindow());
        }
    }

    @Test
    void durationsAreWrittenAsRedisAndKafkaUsersWriteThem()
    {
        assertEquals(Duration.ofSeconds(90), TimeWindow.parseDuration("90s"));
        assertEquals(Duration.ofMinutes(15), TimeWindow.parseDuration("15m"));
        assertEquals(Duration.ofHours(24), TimeWindow.parseDuration("24h"));
        assertEquals(Duration.ofDays(7), TimeWindow.parseDuration("7d"));
        assertEquals(Duration.ofMinutes(90), TimeWindow.parseDuration("1h30m"));
        assertEquals(Duration.ofMillis(500), TimeWindow.parseDuration("500ms"));
        assertEquals(Duration.ofHours(24), TimeWindow.parseDuration(" 24H "));
        assertEquals("1d12h", TimeWindow.format(Duration.ofHours(36)));
        assertEquals("1m30s", TimeWindow.format(Duration.ofSeconds(90)));
        for (final String bad : new String[] {"", "24", "h", "24x", "1.5h", "-3s", "99999999999999999999d"})
        {
            assertThrows(IllegalArgumentException.class, () -> TimeWindow.parseDuration(bad), bad);
        }
    }
}
