package io.ddf.engine;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.Recovery;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * fifo-bloom through the change log (FORMAT-LOG.md: FIFO_ADD with the item's ticket, FIFO_TURN with the generation):
 * checkpointed, then streamed past several turns (the slots recycled: generations past L, their sweeps), then a power
 * cut played (pages of the checkpoint or the cut, the header page torn at sectors in half the mixes, another boot id).
 * After the replay every element the uncut filter held is held (exact for every live generation), no element it had
 * forgotten comes back, and the filter turns on as the uncut one would: the same elements streamed next get the same
 * verdicts. The same for a window of time (layout 2.1), its generations turned by time and by count on either side of
 * the checkpoint: FIFO_TURN then carries the generation's start and cause, and replay turns at them.
 */
final class FifoLogReplayTest extends EngineTestBase
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

    @ParameterizedTest
    @ValueSource(longs = {4, 8})
    void turnsAndSweepsReplayToTheUncutFilter(final long generations) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ generations);
        final long[] first = random.longs(CAPACITY * 2).toArray(); // past L generations: slots recycled
        final long[] second = random.longs(CAPACITY).toArray(); // turns after the checkpoint
        final long[] next = random.longs(CAPACITY / 2).toArray();
        final Path path = dir.resolve("f.ddf");
        final byte[] atCheckpoint;
        final byte[] atCut;
        final boolean[] held = new boolean[first.length + second.length];
        final StringBuilder expectedNext = new StringBuilder();
        try (DuplicateFilter filter = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", CAPACITY)
            .param("generations", generations).file(path).create())
        {
            for (final long e : first)
            {
                filter.stream(e);
            }
            filter.checkpoint();
            atCheckpoint = Files.readAllBytes(path);
            for (final long e : second)
            {
                filter.stream(e);
            }
            filter.sync(); // the cut comes after the log's last force (everysec's), the table torn
            atCut = Files.readAllBytes(path);
            copyLog(path, dir.resolve("log-at-cut"));
            for (int i = 0; i < held.length; i++)
            {
                held[i] = filter.contains(i < first.length ? first[i] : second[i - first.length]);
            }
            for (final long e : next)
            {
                expectedNext.append(filter.stream(e).name().charAt(0));
            }
        }
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path cut = dir.resolve("cut-" + mix).resolve("f.ddf");
            Files.createDirectories(cut.getParent());
            Files.write(cut, mixed(atCheckpoint, atCut, random, mix % 2 == 1));
            Files.setPosixFilePermissions(cut, PosixFilePermissions.fromString("rw-------"));
            copyDirectory(dir.resolve("log-at-cut"), cut.resolveSibling("f.ddf.log"));
            System.setProperty(BootId.PROPERTY, new UUID(random.nextLong(), random.nextLong()).toString());
            try (DuplicateFilter filter = Filters.open(cut))
            {
                assertReplayedAsHeld(filter, held, first, second, "L=" + generations + " mix " + mix);
                final StringBuilder nextVerdicts = new StringBuilder();
                for (final long e : next)
                {
                    nextVerdicts.append(filter.stream(e).name().charAt(0));
                }
                assertEquals(expectedNext.toString(), nextVerdicts.toString(), "L=" + generations + " mix " + mix +
                    ": the filter turns on as the uncut one");
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void turnsByTimeReplayToTheUncutFilter(final int slices) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ slices);
        final long start = 1_700_000_000_000L;
        final ManualClock clock = new ManualClock(start);
        final long[] first = random.longs(CAPACITY * 2).toArray();
        final long[] second = random.longs(CAPACITY).toArray();
        final long[] next = random.longs(CAPACITY / 2).toArray();
        final Path path = dir.resolve("w.ddf");
        final byte[] atCheckpoint;
        final byte[] atCut;
        final boolean[] held = new boolean[first.length + second.length];
        final StringBuilder expectedNext = new StringBuilder();
        final long turnedBefore;
        try (DuplicateFilter filter = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", CAPACITY)
            .window(Duration.ofSeconds(8)).subfilters(slices).clock(clock).file(path).create())
        {
            // slowly (turns by time, W / L), then in a burst (turns by count, c = capacity / L), then slowly again
            streamPaced(filter, clock, first, 0, CAPACITY, 300);
            streamPaced(filter, clock, first, CAPACITY, 2 * CAPACITY, 20);
            filter.checkpoint();
            turnedBefore = filter.timeWindow().orElseThrow().turnsByTime();
            atCheckpoint = Files.readAllBytes(path);
            streamPaced(filter, clock, second, 0, CAPACITY / 2, 20);
            streamPaced(filter, clock, second, CAPACITY / 2, CAPACITY, 400);
            assertTrue(filter.timeWindow().orElseThrow().turnsByTime() > turnedBefore, "time turned generations after the checkpoint");
            filter.sync(); // the cut comes after the log's last force (everysec's), the table torn
            atCut = Files.readAllBytes(path);
            copyLog(path, dir.resolve("wlog-at-cut"));
            // read at the filter's own time, at which the replayed one opens (time passing while closed, which
            // expires generations at the open, is WindowPromiseTest's)
            clock.set(filter.timeWindow().orElseThrow().filterTimeMillis());
            for (int i = 0; i < held.length; i++)
            {
                held[i] = filter.contains(i < first.length ? first[i] : second[i - first.length]);
            }
        }
        final ManualClock nextClock = new ManualClock(clock.millis());
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path cut = dir.resolve("wcut-" + mix).resolve("w.ddf");
            Files.createDirectories(cut.getParent());
            Files.write(cut, mixed(atCheckpoint, atCut, random, mix % 2 == 1));
            Files.setPosixFilePermissions(cut, PosixFilePermissions.fromString("rw-------"));
            copyDirectory(dir.resolve("wlog-at-cut"), cut.resolveSibling("w.ddf.log"));
            System.setProperty(BootId.PROPERTY, new UUID(random.nextLong(), random.nextLong()).toString());
            nextClock.set(clock.millis());
            final List<Filters.Opened> opened = Filters.openAll(List.of(cut), SyncPolicy.EVERYSEC, nextClock);
            try (DuplicateFilter filter = opened.get(0).filter())
            {
                assertReplayedAsHeld(filter, held, first, second, "L=" + slices + " mix " + mix);
                final StringBuilder nextVerdicts = new StringBuilder();
                for (int i = 0; i < next.length; i++)
                {
                    nextVerdicts.append(filter.stream(next[i]).name().charAt(0));
                    nextClock.advance(i % 500 == 499 ? 300 : 0);
                }
                if (mix == 0)
                {
                    expectedNext.append(nextVerdicts);
                }
                assertEquals(expectedNext.toString(), nextVerdicts.toString(), "L=" + slices + " mix " + mix +
                    ": the filter turns on as the first replayed one");
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
        }
    }

    /**
     * The replayed filter says what the uncut one held: it replayed, lost no element of a live generation and
     * brought back no forgotten one.
     */
    private static void assertReplayedAsHeld(final DuplicateFilter filter, final boolean[] held, final long[] first,
        final long[] second, final String label)
    {
        final Recovery recovery = filter.recovery();
        assertEquals(Recovery.Outcome.REPLAYED, recovery.outcome(), recovery.describe());
        int lost = 0;
        int back = 0;
        for (int i = 0; i < held.length; i++)
        {
            final boolean now = filter.contains(i < first.length ? first[i] : second[i - first.length]);
            lost += held[i] && !now ? 1 : 0;
            back += !held[i] && now ? 1 : 0;
        }
        assertEquals(0, lost, label + ": elements of live generations lost");
        assertEquals(0, back, label + ": forgotten elements back");
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
}
