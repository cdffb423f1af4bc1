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
 * in the middle of a group: nothing from it on is applied, and every record applied was touched first.
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
        final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final LogBinding binding = new LogBinding(header.addressOffset(), LogBinding.FILTER_FILE_OFFSET, () -> { });
        final Path logDir = dir.resolve("log");
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
                final long end = log.append(number, OP, 0, 1000L + i, 0);
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
            final FilterLog filterLog = FilterLog.attach(log, binding, FilterLog.Found.NOT_SEALED, new ReplayTarget()
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
            }, () -> { });
            assertEquals(Recovery.Outcome.REPLAYED, filterLog.recovery().outcome());
            assertEquals(applied.size(), filterLog.recovery().records());
        }
        assertTrue(touched.containsAll(applied), "every record applied was touched first");
        return applied;
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
