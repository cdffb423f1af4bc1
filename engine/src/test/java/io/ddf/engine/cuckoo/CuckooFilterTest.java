package io.ddf.engine.cuckoo;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.hash.Mix;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The streaming cuckoo filter's properties, on the public API and inside its region. */
class CuckooFilterTest extends MappedMemoryTestBase
{
    /** A core over direct memory, with package access to its table. */
    private static final class Fixture implements AutoCloseable
    {
        final DirectRegion region;
        final CuckooCore core;
        final long slotCount;

        Fixture(final long buckets, final int b, final int f, final int maxKicks)
        {
            final long[] slots = {buckets * b * f, b, f, maxKicks};
            final CuckooDefinition definition = new CuckooDefinition();
            definition.check(slots);
            this.region = new DirectRegion(definition.tableBytes(slots));
            this.core = (CuckooCore)definition.core(slots, region.words(), null);
            this.slotCount = buckets * b;
            assertEquals(buckets, core.buckets());
        }

        @Override
        public void close()
        {
            region.close();
        }
    }

    @Test
    void noFalseNegativeBeforeAnyDropThroughTheApi()
    {
        final long seed = TestSeed.seed();
        final long[] elements = new SplittableRandom(seed).longs(1 << 10).distinct().toArray();
        // A filter for 2^16 elements: 2^17 slots of 16 bits, 4 to a bucket.
        try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).memoryBits((1L << 17) * 16).buckets(4)
            .fingerprintBits(16).create())
        {
            int unseen = 0;
            for (final long e : elements)
            {
                unseen += filter.stream(e) == Verdict.UNSEEN ? 1 : 0;
            }
            assertTrue(unseen >= elements.length - 1, "at most one false positive expected, seed=" + seed);
            for (final long e : elements)
            {
                assertEquals(Verdict.DUPLICATE, filter.stream(e), "element " + e + " seed=" + seed);
            }
        }
    }

    @ParameterizedTest(name = "b={0} f={1}")
    @CsvSource({"4,16", "1,3", "2,5", "8,16", "3,32"})
    void noFalseNegativeBeforeAnyDrop(final int b, final int f)
    {
        final long seed = TestSeed.seed();
        final long[] elements = new SplittableRandom(seed).longs(1 << 10).distinct().toArray();
        try (Fixture fixture = new Fixture((1L << 17) / b, b, f, 500))
        {
            for (final long e : elements)
            {
                fixture.core.stream(e);
            }
            assertEquals(0, fixture.core.drops());
            for (final long e : elements)
            {
                assertTrue(fixture.core.contains(e), "seed=" + seed);
                assertTrue(fixture.core.stream(e), "seed=" + seed);
            }
        }
    }

    @ParameterizedTest(name = "b={0} f={1}")
    @CsvSource({"4,16", "1,3", "2,5", "8,16", "3,32"})
    void overfullTableNeverFailsNorHoldsMoreThanItsSlots(final int b, final int f)
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Fixture fixture = new Fixture(64, b, f, 500))
        {
            for (int i = 0; i < 10_000; i++)
            {
                final long e = Mix.mix64(random.nextLong(4_000)); // a hash, as the framework gives cores
                assertDoesNotThrow(() -> fixture.core.stream(e));
                if (i % 500 == 0)
                {
                    assertTrue(fixture.core.storedFingerprints() <= fixture.slotCount, "seed=" + seed);
                }
            }
            // Buckets never lose a fingerprint except by replacement, so an overfull table ends full, not fuller.
            assertEquals(fixture.slotCount, fixture.core.storedFingerprints(), "seed=" + seed);
            assertTrue(fixture.core.drops() > 0);
        }
    }

    @ParameterizedTest(name = "b={0} f={1} max-kicks={2}")
    @CsvSource({"4,16,500", "1,3,500", "1,3,0", "4,16,0", "8,16,3"})
    void anElementIsDuplicateRightAfterItsInsertion(final int b, final int f, final int maxKicks)
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Fixture fixture = new Fixture(32, b, f, maxKicks))
        {
            for (int i = 0; i < 10_000; i++)
            {
                final long e = random.nextLong();
                fixture.core.stream(e);
                assertTrue(fixture.core.stream(e), "element " + i + " seed=" + seed);
            }
            assertTrue(fixture.core.drops() > 0);
        }
    }

    @ParameterizedTest(name = "max-kicks={0}")
    @CsvSource({"0", "1", "7", "500"})
    void displacementsPerInsertionAreBounded(final int maxKicks)
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Fixture fixture = new Fixture(16, 4, 16, maxKicks))
        {
            long longest = 0;
            for (int i = 0; i < 5_000; i++)
            {
                final long kicksBefore = fixture.core.kicks();
                final long dropsBefore = fixture.core.drops();
                fixture.core.stream(random.nextLong());
                final long kicks = fixture.core.kicks() - kicksBefore;
                final long drops = fixture.core.drops() - dropsBefore;
                assertTrue(kicks <= maxKicks + 1L, kicks + " displacements, seed=" + seed);
                assertTrue(drops <= 1);
                if (drops == 1)
                {
                    assertTrue(kicks >= maxKicks, "dropped after " + kicks + " displacements, seed=" + seed);
                }
                longest = Math.max(longest, kicks);
            }
            assertTrue(fixture.core.drops() > 0);
            assertTrue(longest >= maxKicks, "the bound was reached");
            System.out.println("  longest chain " + longest + ", kicks " + fixture.core.kicks() + ", drops " +
                fixture.core.drops());
        }
    }

    @Test
    void partnerBucketIsAnInvolutionForAnyBucketCount()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        for (final long n : new long[] {1, 2, 3, 7, 1000, 12_345})
        {
            try (Fixture fixture = new Fixture(n, 2, 8, 10))
            {
                for (int i = 0; i < 2_000; i++)
                {
                    final long hash = random.nextLong();
                    final long fp = fixture.core.fingerprint(hash);
                    final long i1 = fixture.core.firstBucket(hash);
                    final long i2 = fixture.core.alternate(i1, fp);
                    assertTrue(fp > 0 && fp < 256 && i2 >= 0 && i2 < n);
                    assertEquals(i1, fixture.core.alternate(i2, fp), "n=" + n + " seed=" + seed);
                }
            }
        }
    }

    /**
     * Element atomicity of the one-word layout with 16-bit fingerprints, which the shared concurrency test leaves
     * out: keys with distinct fingerprints (so none is a false positive of another), at a load high enough for
     * relocations to run while other threads look up and insert, and low enough for none to end in a drop.
     */
    @ParameterizedTest(name = "b={0} f={1} load={2}")
    @CsvSource({"4,16,0.85", "1,16,0.4", "8,16,0.9"})
    void concurrentStreamsGiveExactlyOneUnseenPerKey(final int b, final int f, final double load) throws Exception
    {
        final long seed = TestSeed.seed();
        final int keysCount = 4096;
        final int threadsCount = 4;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 10; round++)
        {
            try (Fixture fixture = new Fixture((long)Math.ceil(keysCount / load / b), b, f, 500))
            {
                final Set<Long> fingerprints = new HashSet<>();
                final long[] keys = new long[keysCount];
                for (int count = 0; count < keysCount; )
                {
                    final long key = random.nextLong();
                    if (fingerprints.add(fixture.core.fingerprint(key)))
                    {
                        keys[count++] = key;
                    }
                }
                final AtomicIntegerArray unseen = new AtomicIntegerArray(keysCount);
                final CyclicBarrier start = new CyclicBarrier(threadsCount);
                final Thread[] threads = new Thread[threadsCount];
                final Throwable[] failure = new Throwable[1];
                for (int t = 0; t < threadsCount; t++)
                {
                    final int offset = t * 97;
                    threads[t] = new Thread(() ->
                    {
                        try
                        {
                            start.await();
                            for (int i = 0; i < keysCount; i++)
                            {
                                final int index = (i + offset) % keysCount;
                                if (!fixture.core.stream(keys[index]))
                                {
                                    unseen.incrementAndGet(index);
                                }
                            }
                        }
                        catch (final Throwable e)
                        {
                            failure[0] = e;
                        }
                    });
                    threads[t].start();
                }
                for (final Thread thread : threads)
                {
                    thread.join();
                }
                assertEquals(null, failure[0]);
                assertEquals(0, fixture.core.drops(), "a drop would allow a second UNSEEN; seed=" + seed);
                assertTrue(fixture.core.kicks() > 0, "relocations should have run");
                for (int i = 0; i < keysCount; i++)
                {
                    assertEquals(1, unseen.get(i), "key " + i + " round " + round + " seed=" + seed);
                }
                assertEquals(keysCount, fixture.core.storedFingerprints());
            }
        }
    }

    @Test
    void defaultsWorkAndImpossibleParametersAreRefused()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(1L));
            assertEquals(Verdict.DUPLICATE, filter.stream(1L));
            assertEquals(1L << 26, filter.parameters().get("memory-bits"));
        }
        // Seed 000 Table 2's cuckoo: 1 slot of 3 bits per bucket.
        try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).memoryBits(10_000).buckets(1)
            .fingerprintBits(3).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(7L));
        }
        final IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.CUCKOO).buckets(2).fingerprintBits(2).parameters());
        assertTrue(tooFew.getMessage().contains("fingerprint"), tooFew.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.CUCKOO).param("max-kicks", -1).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.CUCKOO).memoryBits(10).parameters());
    }

    @ParameterizedTest(name = "b={0} f={1}")
    @CsvSource({"4,16", "1,8", "8,16", "3,32"})
    void addCountsCopiesAndDeleteRemovesOneAtATimeThroughTheApi(final int b, final int f)
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).memoryBits(1L << 16).buckets(b)
            .fingerprintBits(f).create())
        {
            assertTrue(filter.counting());
            final long x = filter.hash("x");
            assertEquals(0, filter.countHash(x));
            assertEquals(false, filter.deleteHash(x));
            filter.addHash(x);
            filter.addHash(x);
            assertEquals(2, filter.countHash(x));
            assertEquals(Verdict.DUPLICATE, filter.stream("x"));
            assertEquals(2, filter.countHash(x), "stream adds nothing to a present element");
            assertTrue(filter.deleteHash(x));
            assertEquals(1, filter.countHash(x));
            assertTrue(filter.contains("x"));
            assertTrue(filter.deleteHash(x));
            assertEquals(0, filter.countHash(x));
            assertEquals(false, filter.contains("x"));
            assertEquals(false, filter.deleteHash(x));
            assertEquals(2, filter.deletions());
            assertEquals(Verdict.UNSEEN, filter.stream("x"));
        }
    }

    @ParameterizedTest(name = "b={0} f={1}")
    @CsvSource({"4,16", "1,16", "8,16", "3,32"})
    void deletingSomeElementsLeavesTheOthers(final int b, final int f)
    {
        final long seed = TestSeed.seed();
        final long[] elements = new SplittableRandom(seed).longs(2_000).distinct().toArray();
        // 2^15 slots for 2,000 elements: no drops; f >= 16, so two of them share a fingerprint and a bucket with
        // probability below 2000^2 / (2^15 / b * 2^16): a shared entry is the one way a delete could remove another.
        try (Fixture fixture = new Fixture((1L << 15) / b, b, f, 500))
        {
            for (final long e : elements)
            {
                fixture.core.stream(Mix.mix64(e));
            }
            for (int i = 0; i < elements.length; i += 2)
            {
                assertTrue(fixture.core.delete(Mix.mix64(elements[i])), "element " + i + " seed=" + seed);
            }
            assertEquals(elements.length / 2, fixture.core.storedFingerprints(), "seed=" + seed);
            for (int i = 0; i < elements.length; i++)
            {
                assertEquals(i % 2 == 1 ? 1 : 0, fixture.core.count(Mix.mix64(elements[i])),
                    "element " + i + " seed=" + seed);
            }
        }
    }

    @Test
    void aKindWithoutEntriesRefusesToDeleteOrCountByName()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 12).create())
        {
            assertEquals(false, filter.counting());
            final UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> filter.deleteHash(filter.hash("x")));
            assertTrue(e.getMessage().contains("qht"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> filter.countHash(filter.hash("x")));
            assertThrows(UnsupportedOperationException.class, () -> filter.addHash(filter.hash("x")));
        }
    }
}
