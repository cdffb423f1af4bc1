package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared mode under contention through hundreds of rotations: threads streaming their own new items race on the
 * tickets, the rotations, the sweep and the claims of stale blocks (zeroing a block while another thread sets bits
 * in it would lose them). Whatever the interleaving, an item acknowledged UNSEEN is held while its generation is one
 * of the newest L: each thread notes the insertion count before each stream (a lower bound of the item's ticket, so
 * of its generation), and at the end every acknowledged item whose bound puts it in the newest L generations must
 * answer present; and the rotation must never wait forever.
 *
 * <p>A blocked fifo-bloom's stream is not isolated (two threads adding the same new item may both get UNSEEN, as
 * with every Bloom filter here), so it is not linearizable and has no Lincheck test; this is the property that
 * holds. It did not fail with the claim removed (zeroing without the ZEROING state): the window in which two
 * threads both find the same block stale is a few stores wide, and 13 s on this 2-core machine never hit it; the
 * claim rests on the argument in BlockedFifoCore's comment. It did fail (items "lost") when its property was wrong
 * (threads finishing at different times, so one thread's last items legitimately rotated out). It failed once in CI
 * (c = 1000, 2,048 blocks: "thread 1 lost an acknowledged item after 599 rotations"), most likely a claim late by
 * a rotation or more; that race is shown deterministically, at each step of the claim, by BlockedFifoRaceTest.
 */
class BlockedFifoConcurrencyTest
{
    private static final int THREADS = 4;
    private static final int PER_THREAD = 150_000;

    @ParameterizedTest(name = "c = {0}, {1} blocks per generation")
    @CsvSource({"1000, 0", "1000, 2048", "50, 512"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void noAcknowledgedItemIsLostAcrossRacingRotations(final long perGeneration, final long givenBlocks)
        throws Exception
    {
        final int generations = 2;
        final BlockedBloomModel sized = BlockedBloomModel.generationLayer(perGeneration, 0.01, generations, -1);
        // more blocks than the sizing's: many sweep tickets, and most inserts claim a stale block
        final BlockedBloomModel layer = givenBlocks == 0 ? sized : new BlockedBloomModel(givenBlocks,
            sized.hashFunctions(), sized.blocksPerItem());
        try (DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(layer.blocks(), generations) * 8);
            DirectRegion header = new DirectRegion(64 * 8))
        {
            final BlockedFifoCore core = new BlockedFifoCore(table.words(false), header.words(false), layer.blocks(),
                layer.hashFunctions(), layer.blocksPerItem(), generations, perGeneration);
            final CyclicBarrier start = new CyclicBarrier(THREADS);
            final long[][] items = new long[THREADS][PER_THREAD];
            final long[][] before = new long[THREADS][PER_THREAD];
            final int[] acknowledgedCounts = new int[THREADS];
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> workers = new ArrayList<>();
            final long seed = TestSeed.seed();
            for (int t = 0; t < THREADS; t++)
            {
                final int id = t;
                final Thread worker = new Thread(() ->
                {
                    try
                    {
                        final SplittableRandom random = new SplittableRandom(seed + id);
                        start.await();
                        int acknowledged = 0;
                        for (int i = 0; i < PER_THREAD; i++)
                        {
                            final long item = random.nextLong();
                            final long ticketAtLeast = header.words().getLongVolatile(BlockedFifoLayout.INSERTIONS);
                            if (!core.stream(item))
                            {
                                items[id][acknowledged] = item;
                                before[id][acknowledged++] = ticketAtLeast;
                            }
                        }
                        acknowledgedCounts[id] = acknowledged;
                    }
                    catch (final Throwable e)
                    {
                        failure.compareAndSet(null, e);
                    }
                }, "fifo-" + t);
                workers.add(worker);
                worker.start();
            }
            for (final Thread worker : workers)
            {
                worker.join();
            }
            assertEquals(null, failure.get());
            final long rotations = header.words().getLongVolatile(BlockedFifoLayout.READY);
            assertTrue(rotations > 100, rotations + " rotations");
            final long newest = (header.words().getLongVolatile(BlockedFifoLayout.INSERTIONS) - 1) / perGeneration;
            long checked = 0;
            for (int t = 0; t < THREADS; t++)
            {
                for (int i = 0; i < acknowledgedCounts[t]; i++)
                {
                    if (before[t][i] / perGeneration > newest - generations)
                    {
                        checked++;
                        assertTrue(core.contains(items[t][i]), "thread " + t + " lost an acknowledged item after " +
                            rotations + " rotations; " + TestSeed.replayHint());
                    }
                }
            }
            assertTrue(checked >= perGeneration / 2, checked + " items checked");
        }
    }
}
