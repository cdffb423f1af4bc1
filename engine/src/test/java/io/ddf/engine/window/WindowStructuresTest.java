package io.ddf.engine.window;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.HangGuard;
import io.ddf.engine.spi.FilterCore;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The window family's building blocks over plain off-heap memory: ring, counting table, cores' crash recovery. */
class WindowStructuresTest
{
    /** Words of zeroed, cache-line-aligned memory kept reachable by the returned buffer's holder. */
    @ParameterizedTest(name = "f={0}")
    @ValueSource(ints = {1, 2, 3, 5, 7, 8, 13, 16, 21, 31, 32, 33, 63, 64})
    void ringScanFindsExactlyTheStoredFingerprints(final int bits)
    {
        final Random random = TestSeed.random();
        final long slots = 257;
        final DirectRegion memory = DirectRegion.ofWords(FingerprintRing.words(slots, bits));
        final FingerprintRing ring = new FingerprintRing(memory.words(), slots, bits);
        final long mask = bits == 64 ? -1L : (1L << bits) - 1;
        final long[] naive = new long[(int)slots];
        for (int round = 0; round < 2000; round++)
        {
            final int slot = random.nextInt((int)slots);
            long value = random.nextLong() & mask;
            value = value == 0 ? 1 : value;
            ring.set(slot, value);
            naive[slot] = value;
            assertEquals(value, ring.get(slot));
            final long probe = round % 2 == 0 ? naive[random.nextInt((int)slots)] : Math.max(1, random.nextLong() & mask);
            boolean expected = false;
            for (final long v : naive)
            {
                expected |= v == probe && probe != 0;
            }
            assertEquals(expected, probe != 0 && ring.scan(probe), "f=" + bits + " probe " + probe);
        }
        java.lang.ref.Reference.reachabilityFence(memory);
    }

    @ParameterizedTest(name = "keyBits={0}")
    @ValueSource(ints = {6, 20, 64})
    void countingTableAgreesWithAMapUnderInsertionsAndDeletions(final int keyBits)
    {
        // Few keys in a small table, so probe runs wrap around and backward shifts happen constantly.
        final Random random = TestSeed.random();
        final long maxKeys = 50;
        final long cells = CountingTable.cells(maxKeys);
        final long maxCount = 1000;
        final DirectRegion memory = DirectRegion.ofWords(CountingTable.words(cells, keyBits, maxCount));
        final CountingTable table = new CountingTable(memory.words(), cells, keyBits, maxCount);
        final long mask = keyBits == 64 ? -1L : (1L << keyBits) - 1;
        final long[] alphabet = new long[(int)maxKeys];
        for (int i = 0; i < alphabet.length; i++)
        {
            alphabet[i] = keyBits == 64 && i == 0 ? 0 : random.nextLong() & mask; // key 0 is legal
        }
        final Map<Long, Integer> counts = new HashMap<>();
        for (int round = 0; round < 100_000; round++)
        {
            final long key = alphabet[random.nextInt(alphabet.length)];
            final int count = counts.getOrDefault(key, 0);
            if (count > 0 && (random.nextBoolean() || count == maxCount))
            {
                table.decrement(key);
                if (count == 1)
                {
                    counts.remove(key);
                }
                else
                {
                    counts.put(key, count - 1);
                }
            }
            else
            {
                table.increment(key);
                counts.put(key, count + 1);
            }
            final long probe = alphabet[random.nextInt(alphabet.length)];
            assertEquals(counts.containsKey(probe), table.contains(probe), "round " + round);
        }
        for (final Map.Entry<Long, Integer> entry : counts.entrySet())
        {
            for (int i = entry.getValue(); i > 0; i--)
            {
                table.decrement(entry.getKey());
            }
        }
        for (long w = 0; w < memory.words().words(); w++)
        {
            assertEquals(0, memory.words().getLongPlain(w), "an emptied table is all zero");
        }
        java.lang.ref.Reference.reachabilityFence(memory);
    }

    @Test
    void exactCoreRebuildsItsTableAfterACrashMidUpdate()
    {
        final Random random = TestSeed.random();
        final long window = 100;
        final long cells = CountingTable.cells(window);
        final DirectRegion crashed = DirectRegion.ofWords(RingCountCore.words(window, 0, cells));
        final DirectRegion reference = DirectRegion.ofWords(RingCountCore.words(window, 0, cells));
        final FilterCore a = new RingCountCore(crashed.words(), window, 0, cells);
        final FilterCore b = new RingCountCore(reference.words(), window, 0, cells);
        for (int i = 0; i < 1000; i++)
        {
            final long e = random.nextInt(300);
            assertEquals(b.stream(e), a.stream(e));
        }
        // A writer killed mid-update: lock word odd, table half written (here: wiped).
        crashed.words().putLongPlain(WindowRegion.LOCK, crashed.words().getLongPlain(WindowRegion.LOCK) + 1);
        final long tableStart = WindowRegion.STATE_WORDS + WindowRegion.lineWords(window);
        for (long w = tableStart; w < crashed.words().words(); w++)
        {
            crashed.words().putLongPlain(w, 0);
        }
        a.recover();
        for (int i = 0; i < 1000; i++)
        {
            final long e = random.nextInt(300);
            assertEquals(b.contains(e), a.contains(e));
            assertEquals(b.stream(e), a.stream(e), "element " + i);
        }
        java.lang.ref.Reference.reachabilityFence(reference);
        java.lang.ref.Reference.reachabilityFence(crashed);
    }

    @Test
    void queueFinishesARotationLeftHalfDone()
    {
        final int l = 3;
        final long c = 10;
        final DirectRegion table = DirectRegion.ofWords(l * ringCoreWords(c));
        final DirectRegion header = DirectRegion.ofWords(64);
        final QueueCore queue = queueOfRingCores(l, c, table, header, false);
        for (long e = 0; e < 2 * c; e++)
        {
            assertFalse(queue.stream(e));
        }
        // A thread claimed the first insertion of generation 2 and died before clearing its subfilter.
        header.words().getAndAddLong(QueueCore.INSERTIONS, 1);
        assertEquals(1, header.words().getLongPlain(QueueCore.READY));
        queue.recover();
        assertEquals(2, header.words().getLongPlain(QueueCore.READY));
        assertTrue(queue.stream(c), "generation 1 is still held");
        assertFalse(queue.stream(1000), "streams go on (no thread waits for the dead one)");
        java.lang.ref.Reference.reachabilityFence(table);
        java.lang.ref.Reference.reachabilityFence(header);
    }

    @Test
    void ownedQueueFinishesARotationAMisusingThreadUnpublished() throws InterruptedException
    {
        final int l = 3;
        final long c = 10;
        final DirectRegion table = DirectRegion.ofWords(l * ringCoreWords(c));
        final DirectRegion header = DirectRegion.ofWords(64);
        final QueueCore queue = queueOfRingCores(l, c, table, header, true);
        for (long e = 0; e < 2 * c; e++)
        {
            assertFalse(queue.stream(e));
        }
        // Two threads misusing the owned filter: B claimed the first insertion of generation 2, published it and
        // went on; A's stale release store then put back generation 1. Each later insertion of generation 2 used to
        // wait for a publication no thread would make: both writers hung, and the test that closed the filter
        // under them crashed the JVM (SIGSEGV reading READY in QueueCore.streamEvery).
        header.words().putLongPlain(QueueCore.INSERTIONS, 2 * c + 3);
        header.words().putLongPlain(QueueCore.READY, 1);
        final boolean[] answers = new boolean[2];
        HangGuard.assertEnds("an owned queue's stream waits forever for a generation no thread publishes", () ->
        {
            answers[0] = queue.stream(c);
            answers[1] = queue.stream(1000);
        }, table, header);
        assertEquals(2, header.words().getLongPlain(QueueCore.READY), "the thread published generation 2 itself");
        assertTrue(answers[0], "generation 1 is still held");
        assertFalse(answers[1]);
        assertTrue(queue.contains(1000), "inserted into the newest subfilter, which the catch-up cleared first");
        java.lang.ref.Reference.reachabilityFence(table);
        java.lang.ref.Reference.reachabilityFence(header);
    }

    @Test
    void aFullCountingTableIsRefusedNotProbedForEver() throws InterruptedException
    {
        // Writers racing in single-writer mode (its sequence lock does not lock) can count a key in two cells and
        // remove it from one: the table fills up, which its ring's bound otherwise rules out.
        final long cells = CountingTable.cells(4);
        final DirectRegion memory = DirectRegion.ofWords(CountingTable.words(cells, 64, 1000));
        final CountingTable table = new CountingTable(memory.words(true), cells, 64, 1000);
        for (long key = 1; key <= cells; key++)
        {
            table.increment(key);
        }
        final Throwable[] thrown = new Throwable[1];
        HangGuard.assertEnds("increment probes a full table for ever", () ->
        {
            try
            {
                table.increment(cells + 1);
            }
            catch (final IllegalStateException e)
            {
                thrown[0] = e;
            }
            table.decrement(1); // the backward shift over a full table ends too
        }, memory);
        assertTrue(thrown[0] instanceof IllegalStateException, "a full table is refused");
        for (long key = 2; key <= cells; key++)
        {
            assertTrue(table.contains(key), "key " + key + " kept by the backward shift");
        }
        assertFalse(table.contains(1));
        table.increment(cells + 1);
        assertTrue(table.contains(cells + 1));
        java.lang.ref.Reference.reachabilityFence(memory);
    }

    private static long ringCoreWords(final long window)
    {
        return RingCountCore.words(window, 0, CountingTable.cells(window));
    }

    /** A queue of l exact-window subfilters of window c over the table, its rotation in the header. */
    private static QueueCore queueOfRingCores(final int l, final long c, final DirectRegion table,
        final DirectRegion header, final boolean owned)
    {
        final long words = ringCoreWords(c);
        final FilterCore[] subfilters = new FilterCore[l];
        for (int i = 0; i < l; i++)
        {
            subfilters[i] = new RingCountCore(table.words(owned).slice(i * words, words), c, 0,
                CountingTable.cells(c));
        }
        return new QueueCore(subfilters, c, header.words(owned));
    }
}
