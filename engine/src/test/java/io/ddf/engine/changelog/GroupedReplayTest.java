package io.ddf.engine.changelog;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.LogReader;
import io.ddf.persistence.log.Recovery;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FilterLog}'s replay in groups touched ahead: the filter's records, and only they, are applied once each in
 * log order across group boundaries and other filters' frames, and a torn frame (its check broken) ends the replay
 * in the middle of a group: nothing from it on is applied, and every record applied was touched first. The same for
 * a target with lanes ({@link BatchReplay}, 1 and 2 lanes): each lane applies its share in log order across batches
 * and barrier records, the barriers reach the target's apply, and a torn frame in a batch ends the replay there.
 */
class GroupedReplayTest
{
    private static final int OP = KindOps.STREAM;

    @TempDir
    Path dir;

    @AfterEach
    void clearBootId()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    @Test
    void appliesEveryRecordOfTheFilterOnceInOrder() throws IOException
    {
        // 3 groups and 5 (FilterLog.GROUP = 16), other filters' frames between them
        final List<Long> applied = replay(FilterLog.GROUP * 3 + 5, -1);
        assertEquals(expected(FilterLog.GROUP * 3 + 5), applied);
    }

    @Test
    void stopsAtTheFirstFrameThatDoesNotValidate() throws IOException
    {
        // the 38th record of the filter torn: its group's first five records applied, nothing from the torn one on
        final List<Long> applied = replay(FilterLog.GROUP * 3 + 5, 37);
        assertEquals(expected(37), applied);
    }

    @Test
    void lanesApplyEveryRecordOnceInOrderAcrossBatchesAndBarriers() throws IOException
    {
        // 2 batches and a part (BatchReplay.BATCH), a barrier every 1000th record: each lane its share, in log order
        final int count = BatchReplay.BATCH * 2 + 100;
        for (final int lanes : new int[] {1, 2})
        {
            final List<List<Long>> applied = replayInLanes(count, -1, lanes);
            assertEquals(expected(count), merged(applied), lanes + " lanes");
        }
    }

    @Test
    void lanesStopAtTheFirstFrameThatDoesNotValidate() throws IOException
    {
        // torn in the second batch: everything before it applied, nothing from it on
        final int torn = BatchReplay.BATCH + 37;
        for (final int lanes : new int[] {1, 2})
        {
            final List<List<Long>> applied = replayInLanes(BatchReplay.BATCH * 2 + 100, torn, lanes);
            assertEquals(expected(torn), merged(applied), lanes + " lanes");
        }
    }

    /** The lanes' lists (each in its own order) merged by hash: each lane's must be increasing (log order). */
    private static List<Long> merged(final List<List<Long>> lanes)
    {
        final List<Long> all = new ArrayList<>();
        for (final List<Long> lane : lanes)
        {
            for (int i = 1; i < lane.size(); i++)
            {
                assertTrue(lane.get(i - 1) < lane.get(i), "a lane applies its records in log order");
            }
            all.addAll(lane);
        }
        all.sort(null);
        return all;
    }

    /**
     * As {@link #replay} with a target that has lanes: lane p takes the records whose hash is p modulo the lanes, a
     * STREAM record whose hash is a multiple of 1000 is a barrier (applied by the target, in the list of lane 0).
     */
    private List<List<Long>> replayInLanes(final int count, final int torn, final int lanes) throws IOException
    {
        final List<List<Long>> applied = new ArrayList<>();
        for (int i = 0; i < lanes; i++)
        {
            applied.add(new ArrayList<>());
        }
        final ReplayLanes local = new ReplayLanes()
        {
            @Override
            public boolean local(final int op, final int aux, final int units)
            {
                return aux == 0;
            }

            @Override
            public ReplayLane lane(final int index, final int lanesCount)
            {
                return new ReplayLane()
                {
                    @Override
                    public long touch(final int op, final int aux, final long hash)
                    {
                        return 0;
                    }

                    @Override
                    public void apply(final int op, final int aux, final long hash, final long arg, final long arg3)
                    {
                        if (hash % lanesCount == index)
                        {
                            applied.get(index).add(hash);
                        }
                    }

                    @Override
                    public void merge()
                    {
                    }
                };
            }
        };
        System.setProperty(BatchReplay.THREADS_PROPERTY, Integer.toString(lanes));
        try
        {
            write(count, torn, new ReplayTarget()
            {
                @Override
                public void apply(final LogReader frame)
                {
                    assertEquals(1, frame.aux(), "only barriers reach the target's apply");
                    applied.get(0).add(frame.hash());
                }

                @Override
                public ReplayLanes lanes()
                {
                    return local;
                }
            });
        }
        finally
        {
            System.clearProperty(BatchReplay.THREADS_PROPERTY);
        }
        return applied;
    }

    private static List<Long> expected(final int count)
    {
        final List<Long> hashes = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            hashes.add(1000L + i);
        }
        return hashes;
    }

    /** Writes {@code count} records of one filter among another's, tears the {@code torn}-th (-1: none), replays. */
    private List<Long> replay(final int count, final int torn) throws IOException
    {
        final List<Long> applied = new ArrayList<>();
        final List<Long> touched = new ArrayList<>();
        write(count, torn, new ReplayTarget()
        {
            @Override
            public void apply(final LogReader frame)
            {
                assertEquals(OP, frame.op());
                applied.add(frame.hash());
            }

            @Override
            public long touch(final int op, final int aux, final long hash)
            {
                touched.add(hash);
                return 0;
            }
        });
        assertTrue(touched.containsAll(applied), "every record applied was touched first");
        return applied;
    }

    /**
     * Writes {@code count} records (hashes 1000 on, aux 1 for each multiple of 1000, else 0) of one filter among
     * another's into a new log, tears the {@code torn}-th (-1: none), replays them onto {@code target}.
     */
    private void write(final int count, final int torn, final ReplayTarget target) throws IOException
    {
        final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final LogBinding binding = new LogBinding(header.addressOffset(), LogBinding.FILTER_FILE_OFFSET, () -> { });
        final Path logDir = Files.createTempDirectory(dir, "log");
        long tornAt = -1;
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT))
        {
            final int number = log.newFilterNumber();
            final int other = log.newFilterNumber();
            binding.attach(log.logId(), number, log.appended(), 1);
            binding.bootId(new UUID(1, 1));
            for (int i = 0; i < count; i++)
            {
                for (int j = 0; j < i % 3; j++)
                {
                    log.append(other, OP, 0, -i, 0);
                }
                final long hash = 1000L + i;
                final long end = log.append(number, OP, hash % 1000 == 0 ? 1 : 0, hash, 0);
                if (i == torn)
                {
                    tornAt = end - 32;
                }
            }
            log.force(log.appended());
        }
        if (tornAt >= 0)
        {
            tear(logDir, tornAt);
        }
        System.setProperty(BootId.PROPERTY, new UUID(2, 2).toString());
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT))
        {
            final FilterLog filterLog = FilterLog.attach(log, binding, FilterLog.Found.NOT_SEALED, target, () -> { });
            assertEquals(Recovery.Outcome.REPLAYED, filterLog.recovery().outcome());
            assertEquals(torn < 0 ? count : torn, filterLog.recovery().records(), filterLog.recovery().describe());
        }
    }

    /** Flips a bit of the check word of the one-unit frame at {@code position} (the first segment's). */
    private static void tear(final Path logDir, final long position) throws IOException
    {
        final Path segment;
        try (var files = Files.list(logDir))
        {
            segment = files.filter(p -> p.getFileName().toString().endsWith(".ddflog")).sorted().findFirst()
                .orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer word = ByteBuffer.allocate(8);
            final long at = 4096 + position + 24;
            channel.read(word, at);
            word.put(0, (byte)(word.get(0) ^ 1));
            word.rewind();
            channel.write(word, at);
        }
    }
}
