package io.ddf.engine.changelog;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.LogReader;
import io.ddf.persistence.testing.TestSeed;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sorted replay ({@link SortedReplay}, {@link LineSort}): the sort is stable (entries of one line keep their
 * order) and orders the lines on the bits asked; and a replay through it of rows whose state depends on the order of
 * their records, with barriers that read every row, leaves exactly what applying the records one by one in log order
 * leaves, for chunks of several sizes and full and partial sorts. Randomised: {@code -Dddf.test.seed} replays a
 * failure.
 */
class SortedReplayTest
{
    /** Rows of the synthetic target: few, so that rows get many records each in a chunk. */
    private static final int ROWS = 1 << 12;

    @TempDir
    Path dir;

    @AfterEach
    void clearProperties()
    {
        System.clearProperty(BootId.PROPERTY);
        System.clearProperty(SortedReplay.CHUNK_PROPERTY);
        System.clearProperty(SortedReplay.SORT_BITS_PROPERTY);
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 20, 7, 1})
    void sortsStablyByLineOnTheBitsAsked(final int sortBits)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ sortBits);
        final int size = 300_000;
        final LineSort sort = new LineSort(size);
        sort.grow(size);
        final int base = random.nextInt(1 << 20);
        final int span = 1 + random.nextInt(1 << 21);
        final int[] lines = new int[size];
        for (int i = 0; i < size; i++)
        {
            lines[i] = base + random.nextInt(span);
            sort.lines()[i] = lines[i];
            sort.payloads()[i] = i; // the entry's place in the log
        }
        sort.sort(size, sortBits);
        final int[] sorted = Arrays.copyOf(sort.lines(), size);
        final long[] order = Arrays.copyOf(sort.payloads(), size);
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (final int line : lines)
        {
            min = Math.min(min, line);
            max = Math.max(max, line);
        }
        final int low = Math.max(0, Integer.SIZE - Integer.numberOfLeadingZeros(max - min) - sortBits);
        for (int i = 0; i < size; i++)
        {
            assertEquals(lines[(int)order[i]], sorted[i], "an entry's line travels with its payload" + hint());
            if (i > 0)
            {
                final int before = sorted[i - 1] - min >>> low;
                final int key = sorted[i] - min >>> low;
                if (key < before || key == before && order[i] < order[i - 1])
                {
                    throw new AssertionError("entries " + (i - 1) + " and " + i + " out of order (keys " + before +
                        ", " + key + "; log places " + order[i - 1] + ", " + order[i] + "), sortBits " + sortBits +
                        hint());
                }
            }
        }
        final long[] places = order.clone();
        Arrays.sort(places);
        for (int i = 0; i < size; i++)
        {
            assertEquals(i, places[i], "every entry once" + hint());
        }
    }

    @Test
    void replaysOrderDependentRowsAsTheLogOrderDoes() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final long[] hashes = random.longs(50_000).toArray();
        for (int i = 0; i < hashes.length; i++)
        {
            hashes[i] &= ~1L; // even: a row-local record; odd (a few below): a barrier
            if (random.nextInt(2000) == 0)
            {
                hashes[i] |= 1;
            }
        }
        final Rows expected = new Rows();
        for (final long hash : hashes)
        {
            expected.record(hash);
        }
        final String[][] settings = {{"1", "32"}, {"1000", "32"}, {"4096", "5"}, {"65536", "32"}, {"65536", "1"}};
        for (final String[] setting : settings)
        {
            System.setProperty(SortedReplay.CHUNK_PROPERTY, setting[0]);
            System.setProperty(SortedReplay.SORT_BITS_PROPERTY, setting[1]);
            final Rows replayed = new Rows();
            assertEquals(hashes.length, replay(hashes, replayed), "records replayed");
            final String what = "chunk " + setting[0] + ", sortBits " + setting[1] + hint();
            assertArrayEquals(expected.rows, replayed.rows, what + ": rows");
            assertEquals(expected.barriers, replayed.barriers, what + ": what the barriers saw");
        }
    }

    private static String hint()
    {
        return " (" + TestSeed.replayHint() + ")";
    }

    /**
     * Rows whose state depends on the order of their records (each folds its records' hashes in), the row of a record
     * its hash's top bits; a barrier (an odd hash) folds every row into what it saw.
     */
    private static final class Rows implements ReplayLines
    {
        final long[] rows = new long[ROWS];
        final List<Long> barriers = new ArrayList<>();

        static int row(final long hash)
        {
            return (int)(hash >>> 52);
        }

        void record(final long hash)
        {
            if ((hash & 1) == 0)
            {
                rows[row(hash)] = rows[row(hash)] * 31 + hash;
            }
            else
            {
                barriers.add(Arrays.hashCode(rows) + hash);
            }
        }

        @Override
        public int take(final int op, final int aux, final long hash, final long arg, final long arg3,
            final int[] lines, final long[] payloads, final int at)
        {
            lines[at] = row(hash);
            payloads[at] = hash;
            return 1;
        }

        @Override
        public void apply(final int[] lines, final long[] payloads, final int size)
        {
            for (int i = 0; i < size; i++)
            {
                assertEquals(row(payloads[i]), lines[i]);
                record(payloads[i]);
            }
        }

        @Override
        public void merge()
        {
            // nothing kept aside
        }
    }

    /** Writes the hashes as one filter's STREAM records (aux 1: a barrier) and replays them onto {@code rows}. */
    private long replay(final long[] hashes, final Rows rows) throws IOException
    {
        final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final LogBinding binding = new LogBinding(header.addressOffset(), LogBinding.FILTER_FILE_OFFSET, () -> { });
        final Path logDir = Files.createTempDirectory(dir, "log");
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT))
        {
            final int number = log.newFilterNumber();
            binding.attach(log.logId(), number, log.appended(), 1);
            binding.bootId(new UUID(1, 1));
            for (final long hash : hashes)
            {
                log.append(number, KindOps.STREAM, (int)(hash & 1), hash, 0);
            }
            log.force(log.appended());
        }
        final ReplayLanes lanes = new ReplayLanes()
        {
            @Override
            public boolean local(final int op, final int aux, final int units)
            {
                return aux == 0;
            }

            @Override
            public ReplayLane lane(final int index, final int count)
            {
                throw new AssertionError("the sorted replay runs no lanes");
            }

            @Override
            public ReplayLines lines()
            {
                return rows;
            }
        };
        System.setProperty(BootId.PROPERTY, new UUID(2, 2).toString());
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT))
        {
            final FilterLog filterLog = FilterLog.attach(log, binding, FilterLog.Found.NOT_SEALED, new ReplayTarget()
            {
                @Override
                public void apply(final LogReader frame)
                {
                    assertEquals(1, frame.aux(), "only barriers reach the target's apply");
                    rows.record(frame.hash());
                }

                @Override
                public ReplayLanes lanes()
                {
                    return lanes;
                }
            }, () -> { });
            return filterLog.recovery().records();
        }
    }
}
