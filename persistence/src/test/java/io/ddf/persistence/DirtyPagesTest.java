package io.ddf.persistence;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The marks of changed pages, and the protocol that never loses one while writers and a sync race. */
final class DirtyPagesTest
{
    private static final long BASE = 1L << 30;
    private static final int PAGE = 1 << DirtyPages.PAGE_SHIFT;

    @Test
    void takeReportsTheSpanOfTheMarkedPagesAndClearsThem()
    {
        final DirtyPages dirty = new DirtyPages(BASE, 40L * PAGE);
        assertTrue(dirty.take().empty());
        dirty.mark(BASE + 3L * PAGE + 17);
        dirty.mark(BASE + 3L * PAGE + 4000);
        dirty.mark(BASE + 29L * PAGE);
        final DirtyPages.Span span = dirty.take();
        assertEquals(new DirtyPages.Span(3, 29, 2), span);
        assertTrue(dirty.take().empty(), "taken once");
        dirty.markRange(BASE + 10L * PAGE - 1, PAGE + 2);
        assertEquals(new DirtyPages.Span(9, 11, 3), dirty.take());
        dirty.restore(span);
        assertEquals(new DirtyPages.Span(3, 29, 27), dirty.take(), "a failed sync's span is marked again, whole");
    }

    @Test
    void theLastPageOfAFileIsTracked()
    {
        final DirtyPages dirty = new DirtyPages(BASE, 13L * PAGE);
        dirty.mark(BASE + 13L * PAGE - 1);
        assertEquals(new DirtyPages.Span(12, 12, 1), dirty.take());
    }

    /**
     * Writers store into pages of a simulated file and mark them; a sync takes the marks and copies the span into a
     * simulated device, over and over. Once the writers stop and a last sync ran, the device must equal the memory:
     * a mark cleared while its page's change was not yet visible would leave a stale page on the device.
     */
    @Test
    void racingWritersAndSyncsLoseNoChange() throws InterruptedException
    {
        final int pages = 64;
        final DirtyPages dirty = new DirtyPages(BASE, (long)pages * PAGE);
        final long[] device = new long[pages];
        final long[] plainMemory = new long[pages];
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong syncs = new AtomicLong();
        final int writers = 3;
        final CountDownLatch done = new CountDownLatch(writers);
        final long seed = TestSeed.seed();
        for (int w = 0; w < writers; w++)
        {
            final SplittableRandom random = new SplittableRandom(seed + w);
            final int writer = w;
            final Thread thread = new Thread(() ->
            {
                long value = writer;
                for (int i = 0; i < 300_000; i++)
                {
                    // each writer owns the pages p with p % writers == writer: one writer per page, as per partition
                    final int page = random.nextInt(pages / writers) * writers + writer;
                    value += writers;
                    plainMemory[page] = value; // the change: a plain store, as owned mode's release store is on x86
                    dirty.mark(BASE + (long)page * PAGE + random.nextInt(PAGE));
                }
                done.countDown();
            });
            thread.start();
        }
        final Thread sync = new Thread(() ->
        {
            while (!stop.get())
            {
                copySpan(dirty.take(), plainMemory, device);
                syncs.incrementAndGet();
            }
        });
        sync.start();
        done.await();
        stop.set(true);
        sync.join();
        copySpan(dirty.take(), plainMemory, device);
        for (int page = 0; page < pages; page++)
        {
            assertEquals(plainMemory[page], device[page], "page " + page + " lost its last change (" + syncs.get() +
                " syncs raced the writers)");
        }
        assertTrue(syncs.get() > 1, "the sync must race the writers");
    }

    private static void copySpan(final DirtyPages.Span span, final long[] memory, final long[] device)
    {
        for (int page = span.first(); page <= span.last() && page >= 0; page++)
        {
            device[page] = memory[page];
        }
    }
}
