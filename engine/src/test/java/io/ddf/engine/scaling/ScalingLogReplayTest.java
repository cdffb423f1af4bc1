package io.ddf.engine.scaling;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.Recovery;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filters that grow, replayed from the change log over a torn image (FORMAT-LOG.md: CHAIN_ADD, CHAIN_GROW; CF_SLOT,
 * CF_COUNTERS, CF_GROW): a filter written through a log is checkpointed, then grows (and, for the cuckoo filter,
 * deletes) before a power cut is played: the file as the device might hold it (each page from the checkpoint or the
 * cut, the grown layers there, in part, or not at all), the log as it was, another boot id. After replay the layers'
 * bytes equal the uncut filter's (exact), and so do its answers and counts.
 */
final class ScalingLogReplayTest
{
    private static final int PAGE = 4096;
    private static final int MIXES = 6;
    /** The first item the concurrent writers add. */
    private static final long FIRST = 100_000;
    private static final LogOptions OPTIONS = LogOptions.DEFAULT.withSegmentBytes(1 << 16);

    @TempDir
    Path dir;

    @AfterEach
    void sameBootAgain()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    private static byte[] item(final long i)
    {
        return ("item-" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private ScalingFilter make(final String kind, final Path path)
    {
        return switch (kind)
        {
            case "ddf" -> BloomChain.create(path, 300, 0.01, false, 2, 42);
            case "redisbloom" -> BloomChain.redisBloom(path, 300, 0.01, false, 2);
            case "nonscaling" -> BloomChain.create(path, 5000, 0.01, true, 2, 42);
            case "cuckoo" -> RedisCuckoo.create(path, 256, 2, 20, 2);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static ScalingFilter open(final String kind, final Path path)
    {
        return kind.equals("cuckoo") ? RedisCuckoo.open(path) : BloomChain.open(path);
    }

    private static void change(final ScalingFilter filter, final long from, final long to, final SplittableRandom r)
    {
        for (long i = from; i < to; i++)
        {
            if (filter instanceof BloomChain chain)
            {
                chain.add(item(i));
            }
            else
            {
                final RedisCuckoo cuckoo = (RedisCuckoo)filter;
                cuckoo.insert(RedisCuckoo.hash(item(i)), false);
                if (r.nextInt(4) == 0)
                {
                    cuckoo.delete(RedisCuckoo.hash(item(from + r.nextLong(i - from + 1))));
                }
            }
        }
    }

    private static String answers(final ScalingFilter filter, final long upTo)
    {
        return answers(filter, 0, upTo);
    }

    private static String answers(final ScalingFilter filter, final long from, final long upTo)
    {
        final StringBuilder out = new StringBuilder();
        for (long i = from; i < upTo; i++)
        {
            out.append(filter instanceof BloomChain chain ? chain.contains(item(i)) ? '1' : '0' :
                (char)('0' + ((RedisCuckoo)filter).count(RedisCuckoo.hash(item(i)))));
        }
        return out.append(" items=").append(filter.items()).toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ddf", "redisbloom", "nonscaling", "cuckoo"})
    void aTornImageReplaysToTheUncutFilterByteForByte(final String kind) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ kind.hashCode());
        final Path path = dir.resolve("f.ddfs");
        final byte[] atCheckpoint;
        final byte[] atCut;
        final String expected;
        final int layersAtCheckpoint;
        final int layersAtCut;
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), OPTIONS))
        {
            final ScalingFilter filter = make(kind, path);
            try
            {
                assertEquals(Recovery.Outcome.CREATED, filter.logTo(log).outcome());
                change(filter, 0, 250, random);
                filter.checkpoint();
                atCheckpoint = Files.readAllBytes(path);
                layersAtCheckpoint = layers(filter);
                change(filter, 250, 3000, random);
                atCut = Files.readAllBytes(path);
                layersAtCut = layers(filter);
                expected = answers(filter, 3200);
                log.force(log.appended());
                copy(dir.resolve("log"), dir.resolve("log-at-cut"));
            }
            finally
            {
                filter.close();
            }
        }
        if (!kind.equals("nonscaling"))
        {
            assertTrue(layersAtCut > layersAtCheckpoint, kind + " grew after its checkpoint: " + layersAtCheckpoint +
                " -> " + layersAtCut);
        }
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path cut = dir.resolve("cut-" + mix).resolve("f.ddfs");
            Files.createDirectories(cut.getParent());
            Files.write(cut, mixed(atCheckpoint, atCut, random));
            replayCut(kind, cut, new UUID(random.nextLong(), mix), atCut, layersAtCut, expected, 0, 3200,
                kind + " mix " + mix);
        }
    }

    /**
     * A checkpoint taken while two threads add (and, to the cuckoo filter, delete) and the filter grows: the image is
     * the file as it was once the checkpoint had taken its position (the least a device can hold after that checkpoint:
     * its msync starts later), torn with the pages of the cut; the log before the checkpoint's position is dropped.
     * The replay from the header's position gives the uncut filter: nothing acknowledged is lost.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ddf", "redisbloom", "cuckoo"})
    void aCheckpointAmongWritersLosesNothingAfterAReplay(final String kind) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ kind.hashCode() ^ 31);
        final Path path = dir.resolve("f.ddfs");
        final int perThread = 10_000;
        final AtomicReference<byte[]> atPosition = new AtomicReference<>();
        final byte[] headerAfter;
        final byte[] atCut;
        final String expected;
        final int layersAtCut;
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), OPTIONS))
        {
            final ScalingFilter filter = make(kind, path);
            try
            {
                filter.logTo(log);
                final AtomicLong progress = new AtomicLong();
                final List<Thread> writers = new ArrayList<>();
                final CountDownLatch positionTaken = new CountDownLatch(1);
                final AtomicReference<Throwable> failed = new AtomicReference<>();
                for (int t = 0; t < 2; t++)
                {
                    final long from = FIRST + (long)t * perThread;
                    final SplittableRandom own = random.split();
                    final Thread writer = new Thread(() ->
                    {
                        for (long i = from; i < from + perThread; i++)
                        {
                            if (i == from + perThread / 2)
                            {
                                // half of the items wait for the probed checkpoint's position, so that the filter
                                // grows after it however slowly the checkpoint starts on a loaded machine
                                awaitQuietly(positionTaken);
                            }
                            addOne(filter, item(i));
                            if (filter instanceof RedisCuckoo cuckoo && own.nextInt(4) == 0)
                            {
                                cuckoo.delete(RedisCuckoo.hash(item(from + own.nextLong(i - from + 1))));
                            }
                            progress.incrementAndGet();
                        }
                    });
                    writer.setUncaughtExceptionHandler((th, e) -> failed.set(e));
                    writers.add(writer);
                }
                writers.forEach(Thread::start);
                int checkpoints = 0;
                while (progress.get() < perThread / 2) // some checkpoints among the writers, before the one probed
                {
                    filter.checkpoint();
                    checkpoints++;
                }
                final AtomicBoolean addedDuring = new AtomicBoolean();
                filter.atCheckpointPosition = () ->
                {
                    atPosition.set(readQuietly(path));
                    positionTaken.countDown();
                    // an add from another thread while this checkpoint forces the pages: it would wait forever if
                    // the checkpoint held what writers take (its record lies after the position: replayed)
                    final Thread during = new Thread(() -> addOne(filter, item(FIRST - 1)));
                    during.start();
                    joinQuietly(during);
                    addedDuring.set(!during.isAlive());
                };
                final Checkpoint probed;
                try
                {
                    probed = filter.checkpoint();
                }
                finally
                {
                    positionTaken.countDown(); // never leave the writers waiting when the checkpoint fails
                }
                filter.atCheckpointPosition = null;
                headerAfter = Arrays.copyOf(Files.readAllBytes(path), PAGE);
                assertEquals(probed.position(), filter.checkpointPosition());
                final int dropped = log.dropBefore(filter.checkpointPosition());
                for (final Thread writer : writers)
                {
                    writer.join();
                }
                assertEquals(null, failed.get());
                assertTrue(addedDuring.get(), kind + ": an add while the checkpoint forced the pages did not wait");
                assertTrue(dropped > 0 && log.start() > 0, kind + ": the log before the checkpoint was dropped (" +
                    dropped + " segments, start " + log.start() + "), after " + checkpoints + " checkpoints");
                atCut = Files.readAllBytes(path);
                layersAtCut = layers(filter);
                expected = answers(filter, FIRST - 1, FIRST + 2L * perThread);
                log.force(log.appended());
                copy(dir.resolve("log"), dir.resolve("log-at-cut"));
            }
            finally
            {
                filter.close();
            }
        }
        assertTrue(layersAtCut > layers(atPosition.get()), kind + " grew after the checkpoint");
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path cut = dir.resolve("cut-" + mix).resolve("f.ddfs");
            Files.createDirectories(cut.getParent());
            final byte[] image = mixed(atPosition.get(), atCut, random);
            System.arraycopy(random.nextBoolean() ? headerAfter : atCut, 0, image, 0, PAGE);
            Files.write(cut, image);
            replayCut(kind, cut, new UUID(random.nextLong(), mix), atCut, layersAtCut, expected, FIRST - 1,
                FIRST + 2L * perThread, kind + " mix " + mix);
        }
    }

    /**
     * Plays a power cut of the image at {@code cut}: the log as at the cut, another boot id; the open must replay to
     * the uncut filter's answers (items {@code from} to {@code to}), layers and layers' bytes.
     */
    private void replayCut(final String kind, final Path cut, final UUID boot, final byte[] atCut, final int layersAtCut,
        final String expected, final long from, final long to, final String what) throws IOException
    {
        copy(dir.resolve("log-at-cut"), cut.resolveSibling("log"));
        System.setProperty(BootId.PROPERTY, boot.toString());
        try (ChangeLog log = ChangeLog.open(cut.resolveSibling("log"), OPTIONS))
        {
            final ScalingFilter filter = open(kind, cut);
            try
            {
                final Recovery recovery = filter.logTo(log);
                assertEquals(Recovery.Outcome.REPLAYED, recovery.outcome(), what + ": " + recovery.describe());
                assertTrue(recovery.records() > 0, recovery.describe());
                assertEquals(expected, answers(filter, from, to), what + ": answers after replay");
                assertEquals(layersAtCut, layers(filter), what);
                final byte[] replayed = Files.readAllBytes(cut);
                assertEquals(atCut.length, replayed.length, what);
                assertArrayEquals(Arrays.copyOfRange(atCut, PAGE, atCut.length),
                    Arrays.copyOfRange(replayed, PAGE, replayed.length), what + ": layers' bytes");
            }
            finally
            {
                filter.close();
            }
        }
        finally
        {
            System.clearProperty(BootId.PROPERTY);
        }
    }

    private static void addOne(final ScalingFilter filter, final byte[] item)
    {
        if (filter instanceof BloomChain chain)
        {
            chain.add(item);
        }
        else
        {
            ((RedisCuckoo)filter).insert(RedisCuckoo.hash(item), false);
        }
    }

    private static void joinQuietly(final Thread thread)
    {
        try
        {
            thread.join(60_000); // a deadlock detector, not a timing: the add takes microseconds
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            if (!latch.await(60, TimeUnit.SECONDS)) // a deadlock detector, not a timing
            {
                throw new IllegalStateException("the probed checkpoint never took its position");
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] readQuietly(final Path path)
    {
        try
        {
            return Files.readAllBytes(path);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the layers a file image publishes (its header's count). */
    private static int layers(final byte[] image)
    {
        return (int)ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getLong(ChainFile.LAYERS_OFFSET);
    }

    private static int layers(final ScalingFilter filter)
    {
        return filter instanceof BloomChain chain ? chain.layerCount() : ((RedisCuckoo)filter).filters();
    }

    /**
     * Page by page from the checkpoint or the cut; past the checkpoint's length (the layers grown since), the cut's
     * pages, zeros (allocated, never written back), or nothing (the file as long as at the checkpoint).
     */
    private static byte[] mixed(final byte[] a, final byte[] b, final SplittableRandom random)
    {
        final byte[] out = new byte[random.nextBoolean() ? a.length : b.length];
        for (int page = 0; page < out.length; page += PAGE)
        {
            final byte[] from = page < a.length ? random.nextBoolean() ? a : b : random.nextInt(3) == 0 ? null : b;
            if (from != null)
            {
                System.arraycopy(from, page, out, page, Math.min(PAGE, out.length - page));
            }
        }
        return out;
    }

    private static void copy(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            // not a segment the log's thread is creating ahead of need (.ddf-creating-...): not part of the log yet
            for (final Path f : files.filter(p -> p.getFileName().toString().endsWith(".ddflog") &&
                !p.getFileName().toString().startsWith(".")).toList())
            {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
