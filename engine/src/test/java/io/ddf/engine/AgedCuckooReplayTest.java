package io.ddf.engine;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.Recovery;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

import static io.ddf.engine.LogReplayTest.copyDirectory;
import static io.ddf.engine.LogReplayTest.copyLog;
import static io.ddf.engine.LogReplayTest.mixed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo through the change log (FORMAT-LOG.md: AGED_ADD with the element's ticket, AGED_TURN with the
 * generation, its start and cause, AGED_EXPIRE with the time, AGED_MOVE with a relocated entry's buckets): on the
 * wall clock, streamed slowly (turns by time), in bursts (turns by count) and slowly again, within the promise and
 * across more generations than it has stamps, checkpointed in the middle, then a power cut played (pages of the checkpoint or the cut, the header page torn at sectors in half the
 * mixes, another boot id). After the replay every element the uncut filter held is held, none it had forgotten is
 * back (beyond what a different placement of the same fingerprints may answer as a false positive), and the filter
 * turns on as the uncut one: the elements streamed next get the uncut filter's verdicts (the same allowance).
 */
final class AgedCuckooReplayTest extends EngineTestBase
{
    private static final long CAPACITY = 20_000;
    private static final int MIXES = 4;

    @TempDir
    Path dir;

    @AfterEach
    void sameBootAgain()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    /**
     * L = 2 at 0.1 %: 13-bit fingerprints, 7 stamps; L = 16 at 1 %: 63 stamps (both one word a bucket); L = 14 at
     * 1 %: two words a bucket, 11-bit fingerprints, 31 stamps. All reuse every stamp. Past the
     * promise (a burst of 2.5 n after the checkpoint), the generations the uncut filter forgot early (AGED_EXPIRE
     * with aux 1) are forgotten by the replay too.
     */
    @ParameterizedTest
    @CsvSource({"2, 0.001, 7, false", "16, 0.01, 63, false", "16, 0.01, 63, true", "2, 0.001, 7, true",
        "14, 0.01, 31, false", "14, 0.01, 31, true"})
    void turnsExpiriesAndAddsReplayToTheUncutFilter(final int slices, final double error, final int stamps,
        final boolean past) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ slices);
        final long start = 1_700_000_000_000L;
        final ManualClock clock = new ManualClock(start);
        final long[] first = random.longs(CAPACITY * 2).toArray();
        final long burst = past ? CAPACITY * 5 / 2 : 9_000;
        final long[] second = random.longs(CAPACITY * 3 / 4 - 9_000 + burst).toArray();
        final long[] next = random.longs(CAPACITY / 2).toArray();
        for (int i = 0; i < next.length; i += 2)
        {
            next[i] = second[second.length - 1 - random.nextInt(second.length)]; // within the window at the cut
        }
        final Path path = dir.resolve("a.ddf");
        final byte[] atCheckpoint;
        final byte[] atCut;
        final boolean[] held = new boolean[first.length + second.length];
        final StringBuilder expectedNext = new StringBuilder();
        final long cutTime;
        try (DuplicateFilter filter = Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", CAPACITY)
            .param("target-fpr", error).window(Duration.ofSeconds(8)).subfilters(slices).clock(clock).file(path).create())
        {
            // within the promise (at most n new elements in any W): slowly (8,000 a window, turns by time every
            // W / L), then a burst of n / 2 (turns by count, c = n / L), then slowly again, on both sides of the
            // checkpoint (beyond the promise every insertion would relocate up to max-kicks times)
            streamPaced(filter, clock, first, 0, CAPACITY, 500);
            streamPaced(filter, clock, first, CAPACITY, 3 * CAPACITY / 2, 20);
            streamPaced(filter, clock, first, 3 * CAPACITY / 2, 2 * CAPACITY, 500);
            filter.checkpoint();
            final TimeWindow before = filter.timeWindow().orElseThrow();
            atCheckpoint = Files.readAllBytes(path);
            // less than W after the checkpoint: elements added before it are still live at the cut, and the
            // relocations since have moved some of them (AGED_MOVE puts back those a torn image lost)
            streamPaced(filter, clock, second, 0, CAPACITY / 8, 500);
            streamPaced(filter, clock, second, CAPACITY / 8, CAPACITY / 8 + burst, 20);
            streamPaced(filter, clock, second, CAPACITY / 8 + burst, second.length, 500);
            final TimeWindow after = filter.timeWindow().orElseThrow();
            assertEquals(past, after.recycledEarly() > before.recycledEarly(), "generations forgotten early " +
                "after the checkpoint only past the promise: " + after);
            assertTrue(after.turnsByTime() > before.turnsByTime() && after.turnsByCount() > before.turnsByCount() &&
                after.expired() > before.expired(), "turns by time and count, and expiries, " +
                "after the checkpoint: " + after);
            assertTrue(after.newestGeneration() > stamps, "more generations than stamps: " + after);
            filter.sync(); // the cut comes after the log's last force (everysec's), the table torn
            atCut = Files.readAllBytes(path);
            copyLog(path, dir.resolve("log-at-cut"));
            clock.set(after.filterTimeMillis()); // read at the filter's time, at which the replayed one opens
            long olderHeld = 0;
            for (final long e : first)
            {
                olderHeld += filter.contains(e) ? 1 : 0;
            }
            assertTrue(past || olderHeld > CAPACITY / 10, olderHeld + " elements from before the checkpoint live at " +
                "the cut"); // past the promise the oldest are forgotten first
            for (int i = 0; i < held.length; i++)
            {
                held[i] = filter.contains(i < first.length ? first[i] : second[i - first.length]);
            }
            cutTime = clock.millis();
            streamNext(filter, clock, next, expectedNext);
        }
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path cut = dir.resolve("cut-" + mix).resolve("a.ddf");
            Files.createDirectories(cut.getParent());
            Files.write(cut, mixed(atCheckpoint, atCut, random, mix % 2 == 1));
            Files.setPosixFilePermissions(cut, PosixFilePermissions.fromString("rw-------"));
            copyDirectory(dir.resolve("log-at-cut"), cut.resolveSibling("a.ddf.log"));
            System.setProperty(BootId.PROPERTY, new UUID(random.nextLong(), random.nextLong()).toString());
            final String label = "L=" + slices + (past ? " past the promise" : "") + " mix " + mix + "; " +
                TestSeed.replayHint();
            final List<Filters.Opened> opened = Filters.openAll(List.of(cut), SyncPolicy.EVERYSEC,
                new ManualClock(cutTime));
            try (DuplicateFilter filter = opened.get(0).filter())
            {
                assertReplayedAsHeld(filter, held, first, second, label);
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
            // the verdicts of what comes next, on a fresh copy of the cut (the check above streamed nothing)
            System.setProperty(BootId.PROPERTY, new UUID(random.nextLong(), random.nextLong()).toString());
            final ManualClock again = new ManualClock(cutTime);
            try (DuplicateFilter filter = Filters.openAll(List.of(cut), SyncPolicy.EVERYSEC, again).get(0).filter())
            {
                final StringBuilder verdicts = new StringBuilder();
                streamNext(filter, again, next, verdicts);
                int differ = 0;
                for (int i = 0; i < next.length; i++)
                {
                    differ += verdicts.charAt(i) != expectedNext.charAt(i) ? 1 : 0;
                }
                assertTrue(differ <= next.length / 100, differ + " of " + next.length + " next verdicts differ from " +
                    "the uncut filter's: " + label);
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
        }
    }

    /**
     * The replayed filter holds what the uncut one held: no element of a live generation lost; of those it had
     * forgotten, at most what a false positive rate of 1 % answers (a different placement may answer differently).
     */
    private static void assertReplayedAsHeld(final DuplicateFilter filter, final boolean[] held, final long[] first,
        final long[] second, final String label)
    {
        final Recovery recovery = filter.recovery();
        assertEquals(Recovery.Outcome.REPLAYED, recovery.outcome(), recovery.describe());
        int lost = 0;
        int back = 0;
        int forgotten = 0;
        for (int i = 0; i < held.length; i++)
        {
            final boolean now = filter.contains(i < first.length ? first[i] : second[i - first.length]);
            lost += held[i] && !now ? 1 : 0;
            back += !held[i] && now ? 1 : 0;
            forgotten += held[i] ? 0 : 1;
        }
        assertEquals(0, lost, label + ": elements of live generations lost");
        assertTrue(forgotten > CAPACITY / 2, forgotten + " forgotten");
        assertTrue(back <= forgotten / 100, label + ": " + back + " of " + forgotten + " forgotten elements back");
    }

    /** Streams elements [from, to), the clock advanced by {@code every500} ms after each 500. */
    private static void streamPaced(final DuplicateFilter filter, final ManualClock clock, final long[] elements,
        final long from, final long to, final long every500)
    {
        for (long i = from; i < to; i++)
        {
            filter.stream(elements[(int)i]);
            if (i % 500 == 499)
            {
                clock.advance(every500);
            }
        }
    }

    /** Streams what comes after the cut (half of it elements inside their window at the cut), the clock moving. */
    private static void streamNext(final DuplicateFilter filter, final ManualClock clock, final long[] next,
        final StringBuilder verdicts)
    {
        for (int i = 0; i < next.length; i++)
        {
            verdicts.append(filter.stream(next[i]).name().charAt(0));
            if (i % 500 == 499)
            {
                clock.advance(300);
            }
        }
    }
}
