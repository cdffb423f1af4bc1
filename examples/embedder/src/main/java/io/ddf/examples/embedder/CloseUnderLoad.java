package io.ddf.examples.embedder;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.LastClose;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * What a gateway does at shutdown while its threads still stream: each round, several threads stream into a filter
 * (longs, and elements in Agrona buffers), the main thread closes it at a random moment, the streamers stop at the
 * refusal, and the file is opened again: it must be sealed (a clean close) and count every element whose call
 * returned. Prints "N rounds, N files reopened clean" or exits 1 naming what was lost.
 *
 * <pre>
 *   java @ddf.args -cp ... io.ddf.examples.embedder.CloseUnderLoad ROUNDS DIR [SEED]
 * </pre>
 */
public final class CloseUnderLoad
{
    private static final int STREAMERS = 3;

    private CloseUnderLoad()
    {
    }

    /**
     * @param args rounds, a directory for the files, and a seed (default 30).
     * @throws Exception when a round cannot run.
     */
    public static void main(final String[] args) throws Exception
    {
        final int rounds = Integer.parseInt(args[0]);
        final Path dir = Files.createDirectories(Path.of(args[1]));
        final long seed = args.length > 2 ? Long.parseLong(args[2]) : 30;
        final SplittableRandom random = new SplittableRandom(seed);
        System.out.println("agrona " + agronaLine() + ", seed " + seed);
        final List<String> lost = new ArrayList<>();
        for (int round = 0; round < rounds; round++)
        {
            final Path path = dir.resolve("round-" + round + ".ddf");
            final DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1L << 20).file(path)
                .openOrCreate();
            final AtomicLong acknowledged = new AtomicLong();
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final CountDownLatch started = new CountDownLatch(STREAMERS);
            final List<Thread> streamers = new ArrayList<>();
            for (int t = 0; t < STREAMERS; t++)
            {
                final SplittableRandom mine = random.split();
                final Thread streamer = new Thread(() -> stream(filter, mine, started, acknowledged, failed));
                streamers.add(streamer);
                streamer.start();
            }
            started.await();
            LockSupport.parkNanos(random.nextLong(3_000_000));
            filter.close();
            for (final Thread streamer : streamers)
            {
                streamer.join();
            }
            if (failed.get() != null)
            {
                lost.add("round " + round + ": a streamer failed: " + failed.get());
                continue;
            }
            try (DuplicateFilter reopened = Filters.open(path))
            {
                if (reopened.lastClose().kind() != LastClose.Kind.CLEAN || reopened.elements() != acknowledged.get())
                {
                    lost.add("round " + round + ": " + reopened.lastClose().kind() + ", " + reopened.elements() +
                        " elements counted, " + acknowledged.get() + " acknowledged");
                }
            }
            catch (final RuntimeException e)
            {
                lost.add("round " + round + ": " + e);
            }
        }
        if (!lost.isEmpty())
        {
            System.out.println(lost.size() + " of " + rounds + " files lost: " + lost);
            System.exit(1);
        }
        System.out.println(rounds + " rounds, " + rounds + " files reopened clean");
    }

    private static void stream(final DuplicateFilter filter, final SplittableRandom random,
        final CountDownLatch started, final AtomicLong acknowledged, final AtomicReference<Throwable> failed)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        started.countDown();
        try
        {
            while (true)
            {
                if (random.nextBoolean())
                {
                    filter.stream(random.nextLong(1 << 20));
                }
                else
                {
                    buffer.putLong(0, random.nextLong(1 << 20));
                    buffer.putLong(8, random.nextLong());
                    filter.stream(buffer, 0, 16);
                }
                acknowledged.incrementAndGet();
            }
        }
        catch (final IllegalStateException closed)
        {
            if (!String.valueOf(closed.getMessage()).startsWith("filter is closed"))
            {
                failed.compareAndSet(null, closed);
            }
        }
        catch (final Throwable e)
        {
            failed.compareAndSet(null, e);
        }
    }

    /** @return which Agrona line is on the class path: 2.x has org.agrona.UnsafeApi, 1.x org.agrona.UnsafeAccess. */
    static String agronaLine()
    {
        final String version = UnsafeBuffer.class.getPackage().getImplementationVersion();
        try
        {
            Class.forName("org.agrona.UnsafeApi");
            return "2.x (" + version + ")";
        }
        catch (final ClassNotFoundException e)
        {
            return "1.x (" + version + ")";
        }
    }
}
