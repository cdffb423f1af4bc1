package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Backpressure, shutdown, failures, argument checks, thread names and allocation of {@link FilterPipeline}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FilterPipelineTest extends MappedMemoryTestBase
{
    private static DuplicateFilter qht()
    {
        return Filters.builder(FilterKind.QHT).memoryBits(1 << 16).seed(7).create();
    }

    /** Records tags in delivery order, on the listener thread; optionally slow. */
    private static final class Recording implements VerdictListener
    {
        private final long[] tags;
        private final long delayNanos;
        private volatile int count;
        private final AtomicLong errors = new AtomicLong();
        private final AtomicReference<Throwable> lastError = new AtomicReference<>();

        Recording(final int capacity, final long delayNanos)
        {
            this.tags = new long[capacity];
            this.delayNanos = delayNanos;
        }

        @Override
        public void onVerdict(final long tag, final Verdict verdict)
        {
            if (delayNanos > 0)
            {
                final long until = System.nanoTime() + delayNanos;
                while (System.nanoTime() < until)
                {
                    Thread.onSpinWait();
                }
            }
            tags[count] = tag;
            count = count + 1;
        }

        @Override
        public void onError(final long tag, final Throwable failure)
        {
            errors.incrementAndGet();
            lastError.set(failure);
            tags[count] = tag;
            count = count + 1;
        }
    }

    @Test
    void closeDrainsEveryElementFromSeveralProducers() throws Exception
    {
        final int producers = 4;
        final int perProducer = 5_000;
        final Recording listener = new Recording(producers * perProducer, 20_000); // slow: 20 µs a verdict
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(1024).hashers(2).inserters(2)
                .listener(listener).build();
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++)
            {
                final int producer = p;
                final Thread thread = new Thread(() ->
                {
                    for (int i = 0; i < perProducer; i++)
                    {
                        pipeline.publish(filter, Operation.STREAM, (long)producer << 32 | i, (long)producer << 32 | i);
                    }
                }, "producer-" + p);
                threads.add(thread);
                thread.start();
            }
            for (final Thread thread : threads)
            {
                thread.join();
            }
            final long backlog = producers * (long)perProducer - pipeline.delivered();
            pipeline.close(); // right after the last publication: the ring still holds up to 1024 elements
            assertEquals(producers * perProducer, listener.count, "verdicts delivered (backlog at close " +
                backlog + ")");
            assertEquals(producers * (long)perProducer, pipeline.delivered());
            final long[] next = new long[producers];
            for (int i = 0; i < listener.count; i++)
            {
                final int producer = (int)(listener.tags[i] >>> 32);
                assertEquals(next[producer], listener.tags[i] & 0xFFFF_FFFFL, "producer " + producer + " in order");
                next[producer]++;
            }
            assertTrue(backlog > 0, "close should have had something to drain");
            assertEquals(0, pipeline.failures());
        }
    }

    /** One producer's publication number i (of its own making); returns how many elements it published. */
    private interface Publication
    {
        int publish(long i);
    }

    /**
     * Three producers publish (each its {@code rounds} publications) while the pipeline is closed 50 ms after they
     * start; a publication refused with IllegalStateException ends its producer.
     *
     * @return the elements of every publication that returned (accepted before close).
     */
    private static long closeWhilePublishing(final FilterPipeline pipeline, final long rounds,
        final java.util.function.Supplier<Publication> perProducer) throws InterruptedException
    {
        final int producers = 3;
        final AtomicLong accepted = new AtomicLong();
        final CountDownLatch started = new CountDownLatch(producers);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final Publication publication = perProducer.get();
            final Thread thread = new Thread(() ->
            {
                started.countDown();
                try
                {
                    for (long i = 0; i < rounds; i++)
                    {
                        accepted.addAndGet(publication.publish(i));
                    }
                }
                catch (final IllegalStateException e)
                {
                    // closed: expected
                }
            });
            threads.add(thread);
            thread.start();
        }
        started.await();
        Thread.sleep(50);
        pipeline.close();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        return accepted.get();
    }

    @Test
    void closeWhilePublishingLosesNothingAccepted() throws Exception
    {
        final Recording listener = new Recording(1 << 22, 0);
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(256).listener(listener).build();
            final long accepted = closeWhilePublishing(pipeline, 1_000_000, () -> i ->
            {
                pipeline.publish(filter, Operation.STREAM, i, i);
                return 1;
            });
            assertEquals(accepted, listener.count, "every accepted element got its verdict");
            assertThrows(IllegalStateException.class, () -> pipeline.publish(filter, Operation.STREAM, 1L, 1L));
        }
    }

    @Test
    void fullRingPushesBackAndDropsNothing() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> delivered = new ArrayList<>();
        final int ring = 16;
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(ring).hashers(2).inserters(2)
                .waitStrategy("blocking").listener((tag, verdict) ->
                {
                    try
                    {
                        release.await();
                    }
                    catch (final InterruptedException e)
                    {
                        Thread.currentThread().interrupt();
                    }
                    delivered.add(tag);
                }).build();
            long tag = 0;
            while (pipeline.tryPublish(filter, Operation.STREAM, tag, tag) >= 0)
            {
                tag++;
                assertTrue(tag <= ring, "tryPublish accepted more than the ring holds");
            }
            assertEquals(ring, tag, "the ring fills, then tryPublish answers -1");
            assertEquals(-1, pipeline.tryPublish(filter, Operation.STREAM, new byte[4], 0, 4, 99));
            final long blockedTag = tag;
            final AtomicLong blockedSequence = new AtomicLong(-2);
            final Thread blocked = new Thread(() ->
                blockedSequence.set(pipeline.publish(filter, Operation.STREAM, blockedTag, blockedTag)));
            blocked.start();
            Thread.sleep(300);
            assertTrue(blocked.isAlive(), "publish waits while the ring is full");
            assertEquals(-2, blockedSequence.get());
            release.countDown();
            blocked.join(10_000);
            assertFalse(blocked.isAlive());
            assertEquals(ring, blockedSequence.get());
            pipeline.close();
            assertEquals(ring + 1, delivered.size());
            for (int i = 0; i <= ring; i++)
            {
                assertEquals(i, delivered.get(i));
            }
        }
    }

    @Test
    void refusesOversizedElementsAndPublicationAfterClose()
    {
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().maxElementBytes(32).listener((t, v) -> { })
                .build();
            assertEquals(32, pipeline.maxElementBytes());
            final byte[] big = new byte[33];
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> pipeline.publish(filter, Operation.STREAM, big, 0, 33, 1));
            assertTrue(e.getMessage().contains("33") && e.getMessage().contains("32"), e.getMessage());
            assertThrows(IllegalArgumentException.class,
                () -> pipeline.tryPublish(filter, Operation.STREAM, new UnsafeBuffer(big), 0, 33, 1));
            assertThrows(IndexOutOfBoundsException.class,
                () -> pipeline.publish(filter, Operation.STREAM, big, 10, 30, 1));
            pipeline.publish(filter, Operation.STREAM, big, 0, 32, 1);
            pipeline.close();
            pipeline.close(); // idempotent
            assertThrows(IllegalStateException.class, () -> pipeline.publish(filter, Operation.STREAM, 5L, 1));
            assertThrows(IllegalStateException.class,
                () -> pipeline.tryPublish(filter, Operation.STREAM, big, 0, 4, 1));
            try (FilterPipeline small = FilterPipeline.builder().maxElementBytes(4).listener((t, v) -> { }).build())
            {
                final IllegalArgumentException longer = assertThrows(IllegalArgumentException.class,
                    () -> small.publish(filter, Operation.STREAM, 1L, 1));
                assertTrue(longer.getMessage().contains("8") && longer.getMessage().contains("4"));
            }
        }
    }

    @Test
    void builderRefusesNonsense()
    {
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().ringSize(1000));
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().hashers(0));
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().inserters(65));
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().waitStrategy("lazy"));
        assertThrows(IllegalStateException.class, () -> FilterPipeline.builder().build());
    }

    @Test
    void failuresReachTheListenerAndThePipelineGoesOn() throws Exception
    {
        final Recording listener = new Recording(16, 0);
        try (DuplicateFilter open = qht())
        {
            final DuplicateFilter closed = qht();
            closed.close();
            final FilterPipeline pipeline = FilterPipeline.builder().hashers(2).inserters(2).listener(listener)
                .build();
            pipeline.publish(open, Operation.STREAM, 1L, 0);
            pipeline.publish(closed, Operation.STREAM, 2L, 1);
            pipeline.publish(open, Operation.CONTAINS, 1L, 2);
            pipeline.publish(closed, Operation.CONTAINS, 3L, 3);
            pipeline.publish(open, Operation.STREAM, 4L, 4);
            pipeline.close();
            assertEquals(5, listener.count);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(i, listener.tags[i]);
            }
            assertEquals(2, listener.errors.get());
            assertInstanceOf(IllegalStateException.class, listener.lastError.get());
            assertEquals(2, pipeline.failures());
        }

        // a listener that throws: the element is reported to onError, later ones still arrive
        final List<String> events = new ArrayList<>();
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().listener(new VerdictListener()
            {
                @Override
                public void onVerdict(final long tag, final Verdict verdict)
                {
                    if (tag == 1)
                    {
                        throw new IllegalArgumentException("listener bug");
                    }
                    events.add("verdict " + tag);
                }

                @Override
                public void onError(final long tag, final Throwable failure)
                {
                    events.add("error " + tag + " " + failure.getMessage());
                }
            }).build();
            for (long i = 0; i < 3; i++)
            {
                pipeline.publish(filter, Operation.STREAM, i, i);
            }
            pipeline.close();
            assertEquals(List.of("verdict 0", "error 1 listener bug", "verdict 2"), events);
            assertEquals(1, pipeline.failures());
        }
    }

    @Test
    void closeFromTheListenerIsRefused() throws Exception
    {
        final AtomicReference<FilterPipeline> self = new AtomicReference<>();
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final CountDownLatch done = new CountDownLatch(1);
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().listener((tag, verdict) ->
            {
                try
                {
                    self.get().close();
                }
                catch (final IllegalStateException e)
                {
                    thrown.set(e);
                }
                done.countDown();
            }).build();
            self.set(pipeline);
            pipeline.publish(filter, Operation.STREAM, 1L, 1);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, thrown.get());
            pipeline.close();
        }
    }

    @Test
    void stuckListenerMakesCloseGiveUp()
    {
        final CountDownLatch never = new CountDownLatch(1);
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().closeTimeout(Duration.ofMillis(300))
                .listener((tag, verdict) ->
                {
                    try
                    {
                        never.await(); // until close halts the pipeline... which cannot interrupt it
                    }
                    catch (final InterruptedException e)
                    {
                        Thread.currentThread().interrupt();
                    }
                }).build();
            pipeline.publish(filter, Operation.STREAM, 1L, 1);
            pipeline.publish(filter, Operation.STREAM, 2L, 2);
            final IllegalStateException e = assertThrows(IllegalStateException.class, pipeline::close);
            assertTrue(e.getMessage().contains("not delivered"), e.getMessage());
            never.countDown(); // let the listener thread finish
        }
    }

    @Test
    void threadsAreNamedAndStopOnClose()
    {
        try (DuplicateFilter filter = qht())
        {
            final Set<Thread> before = Thread.getAllStackTraces().keySet();
            final FilterPipeline pipeline = FilterPipeline.builder().hashers(2).inserters(2)
                .listener((t, v) -> { }).build();
            pipeline.publish(filter, Operation.STREAM, 1L, 1);
            final Set<String> expected = Set.of("ddf-pipeline-hash-0", "ddf-pipeline-hash-1",
                "ddf-pipeline-insert-0", "ddf-pipeline-insert-1", "ddf-pipeline-verdict");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!names(newThreads(before)).equals(expected) && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(1_000_000);
            }
            final List<Thread> mine = newThreads(before);
            assertEquals(expected, names(mine));
            pipeline.close();
            for (final Thread thread : mine)
            {
                assertFalse(thread.isAlive(), thread.getName() + " still alive");
            }
        }
    }

    /** @return the live pipeline threads not in {@code before}. */
    private static List<Thread> newThreads(final Set<Thread> before)
    {
        final List<Thread> threads = new ArrayList<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (!before.contains(thread) && thread.getName().startsWith("ddf-pipeline-") && thread.isAlive())
            {
                threads.add(thread);
            }
        }
        return threads;
    }

    private static Set<String> names(final List<Thread> threads)
    {
        final Set<String> names = ConcurrentHashMap.newKeySet();
        for (final Thread thread : threads)
        {
            names.add(thread.getName());
        }
        return names;
    }

    @Test
    void publishingAndHandlingAllocateNothing() throws Exception
    {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final AtomicLong sink = new AtomicLong();
        final byte[] bytes = new byte[24];
        final UnsafeBuffer direct = new UnsafeBuffer(new byte[24]);
        try (DuplicateFilter filter = qht())
        {
            final Set<Thread> existing = Thread.getAllStackTraces().keySet();
            final FilterPipeline pipeline = FilterPipeline.builder().hashers(2).inserters(2).ringSize(1024)
                .listener((tag, verdict) -> sink.lazySet(tag + verdict.ordinal())).build();
            publishMany(pipeline, filter, bytes, direct, 300_000); // warm up
            final List<Thread> handlers = newThreads(existing);
            assertEquals(5, handlers.size(), "handler threads");
            final long[] before = new long[handlers.size()];
            for (int i = 0; i < before.length; i++)
            {
                before[i] = mx.getThreadAllocatedBytes(handlers.get(i).getId());
            }
            final long mine = mx.getCurrentThreadAllocatedBytes();
            publishMany(pipeline, filter, bytes, direct, 300_000);
            final long published = mx.getCurrentThreadAllocatedBytes() - mine;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pipeline.delivered() < 600_000 && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(1_000_000);
            }
            final StringBuilder handled = new StringBuilder();
            long worst = 0;
            for (int i = 0; i < before.length; i++)
            {
                final long bytesAllocated = mx.getThreadAllocatedBytes(handlers.get(i).getId()) - before[i];
                worst = Math.max(worst, bytesAllocated);
                handled.append(handlers.get(i).getName()).append('=').append(bytesAllocated).append(' ');
            }
            pipeline.close();
            System.out.printf("publish/tryPublish, 2 hashers + 2 inserters, 300,000 elements: publisher allocated %d "
                + "bytes, handlers %s%n", published, handled);
            assertTrue(published < 64 * 1024, "publisher allocated " + published + " bytes for 300,000 elements");
            assertTrue(worst < 64 * 1024, "handlers allocated " + handled);
            assertNull(pipeline.lastFailure());
        }
    }

    /**
     * Batch publication from one producer, fused handler with prefetch, longs one to a slot or packed 64 to a slot:
     * allocation-free on both sides.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} longs per slot")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 64})
    void batchPublishingFromOneProducerAllocatesNothing(final int longsPerSlot)
    {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final AtomicLong sink = new AtomicLong();
        final long[] longs = new long[100];
        final UnsafeBuffer direct = new UnsafeBuffer(new byte[100 * 16]);
        final int[] offsets = new int[100];
        final int[] lengths = new int[100];
        for (int i = 0; i < 100; i++)
        {
            offsets[i] = 16 * i;
            lengths[i] = 16;
        }
        try (DuplicateFilter filter = qht())
        {
            final Set<Thread> existing = Thread.getAllStackTraces().keySet();
            final FilterPipeline pipeline = FilterPipeline.builder().singleProducer().prefetch(8).ringSize(1024)
                .longsPerSlot(longsPerSlot).listener((tag, verdict) -> sink.lazySet(tag + verdict.ordinal())).build();
            publishBatches(pipeline, filter, longs, direct, offsets, lengths, 3_000); // warm up
            final List<Thread> handlers = newThreads(existing);
            assertEquals(1, handlers.size(), "one fused handler thread");
            final long handlerBefore = mx.getThreadAllocatedBytes(handlers.get(0).getId());
            final long mine = mx.getCurrentThreadAllocatedBytes();
            publishBatches(pipeline, filter, longs, direct, offsets, lengths, 3_000);
            final long published = mx.getCurrentThreadAllocatedBytes() - mine;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pipeline.delivered() < 600_000 && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(1_000_000);
            }
            final long handled = mx.getThreadAllocatedBytes(handlers.get(0).getId()) - handlerBefore;
            pipeline.close();
            System.out.printf("batch publication, one producer, %d longs per slot, 300,000 elements: publisher "
                + "allocated %d bytes, fused handler %d bytes%n", longsPerSlot, published, handled);
            assertEquals(600_000, pipeline.delivered());
            assertTrue(published < 64 * 1024, "publisher allocated " + published + " bytes for 300,000 elements");
            assertTrue(handled < 64 * 1024, "the fused handler allocated " + handled + " bytes");
            assertNull(pipeline.lastFailure());
        }
    }

    private static void publishBatches(final FilterPipeline pipeline, final DuplicateFilter filter,
        final long[] longs, final UnsafeBuffer direct, final int[] offsets, final int[] lengths, final int batches)
    {
        long tag = pipeline.delivered();
        for (int b = 0; b < batches; b++)
        {
            for (int i = 0; i < longs.length; i++)
            {
                longs[i] = tag + i;
                direct.putLong(16 * i, ~(tag + i));
            }
            if ((b & 1) == 0)
            {
                pipeline.publishBatch(filter, Operation.STREAM, longs, 0, longs.length, tag);
            }
            else
            {
                pipeline.publishBatch(filter, Operation.STREAM, direct, offsets, lengths, 0, offsets.length, tag);
            }
            tag += longs.length;
        }
    }

    /**
     * A batch with one bad element is refused whole (IllegalArgumentException naming the lengths, or an index
     * error), before anything is claimed: nothing of it reaches the listener, and the next batch gets the next
     * sequences. A batch larger than the ring goes out in ring-sized claims, in order.
     */
    @Test
    void batchesAreCheckedWholeAndMayExceedTheRing()
    {
        final Recording listener = new Recording(1 << 12, 0);
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(64).maxElementBytes(16)
                .singleProducer().listener(listener).build();
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            final IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> pipeline.publishBatch(filter, Operation.STREAM, buffer, new int[] {0, 16, 32},
                    new int[] {16, 17, 8}, 0, 3, 0));
            assertTrue(tooLong.getMessage().contains("17") && tooLong.getMessage().contains("16"),
                tooLong.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> pipeline.publishBatch(filter, Operation.STREAM,
                buffer, new int[] {0, 60}, new int[] {8, 8}, 0, 2, 0));
            assertThrows(IndexOutOfBoundsException.class,
                () -> pipeline.publishBatch(filter, Operation.STREAM, new long[4], 2, 3, 0));
            assertEquals(-1, pipeline.publishBatch(filter, Operation.STREAM, new long[4], 0, 0, 0));
            final long[] many = new long[1000];
            for (int i = 0; i < many.length; i++)
            {
                many[i] = i;
            }
            assertEquals(999, pipeline.publishBatch(filter, Operation.STREAM, many, 0, many.length, 0));
            pipeline.close();
            assertEquals(1000, listener.count, "only the good batch was delivered");
            for (int i = 0; i < 1000; i++)
            {
                assertEquals(i, listener.tags[i], "tags in order");
            }
            assertEquals(0, listener.errors.get());
        }
    }

    /** Producers publishing batches while close begins: every batch whose publishBatch returned is delivered. */
    @Test
    void closeWhileBatchPublishingLosesNothingAccepted() throws Exception
    {
        final Recording listener = new Recording(1 << 23, 0);
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(256).listener(listener).build();
            final long accepted = closeWhilePublishing(pipeline, 100_000, () ->
            {
                final long[] batch = new long[37];
                return i ->
                {
                    pipeline.publishBatch(filter, Operation.STREAM, batch, 0, batch.length, i);
                    return batch.length;
                };
            });
            assertTrue(accepted > 0, "some batches went through before close");
            assertEquals(accepted, listener.count, "every accepted element got its verdict, no other");
            assertEquals(0, listener.errors.get());
        }
    }

    /** onEndOfBatch follows the last verdict of every batch: after close, the last call saw every verdict. */
    @Test
    void endOfBatchFollowsTheLastVerdict()
    {
        final long[] verdicts = new long[1];
        final long[] atLastEnd = {-1};
        final long[] ends = new long[1];
        try (DuplicateFilter filter = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().singleProducer().listener(new VerdictListener()
            {
                @Override
                public void onVerdict(final long tag, final Verdict verdict)
                {
                    verdicts[0]++;
                }

                @Override
                public void onEndOfBatch()
                {
                    ends[0]++;
                    atLastEnd[0] = verdicts[0];
                }
            }).build();
            final long[] batch = new long[500];
            for (int b = 0; b < 100; b++)
            {
                pipeline.publishBatch(filter, Operation.STREAM, batch, 0, batch.length, (long)b * batch.length);
            }
            pipeline.close(); // joins the handler: its writes are visible here
            assertEquals(50_000, verdicts[0]);
            assertEquals(50_000, atLastEnd[0], "the last onEndOfBatch came after the last verdict");
            assertTrue(ends[0] >= 1 && ends[0] <= 50_000, ends[0] + " batches");
        }
    }

    private static void publishMany(final FilterPipeline pipeline, final DuplicateFilter filter, final byte[] bytes,
        final UnsafeBuffer direct, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            bytes[i & 15] = (byte)i;
            direct.putInt(4, i);
            switch (i & 3)
            {
                case 0 -> pipeline.publish(filter, Operation.STREAM, i, i);
                case 1 -> pipeline.publish(filter, Operation.STREAM, bytes, 0, 24, i);
                case 2 -> pipeline.publish(filter, Operation.CONTAINS, direct, 0, 24, i);
                default ->
                {
                    while (pipeline.tryPublish(filter, Operation.STREAM, (long)i, i) < 0)
                    {
                        Thread.yield();
                    }
                }
            }
        }
    }
}
