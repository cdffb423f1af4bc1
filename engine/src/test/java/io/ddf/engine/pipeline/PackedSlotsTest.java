package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FilterPipelineBuilder#longsPerSlot}: packed slots change how elements cross the ring, never the verdicts,
 * their order or their tags. Batches of random lengths (partial slots, claims larger than the ring) mixed with
 * single publications and CONTAINS give exactly the sequential filter's verdicts, each tag once and in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PackedSlotsTest extends MappedMemoryTestBase
{
    private static final int ELEMENTS = 200_000;

    /** Records verdicts by tag and checks that tags arrive in order, on the listener thread. */
    private static final class ByTag implements VerdictListener
    {
        final byte[] verdicts = new byte[ELEMENTS];
        final List<String> problems = new ArrayList<>();
        long next;

        @Override
        public void onVerdict(final long tag, final Verdict verdict)
        {
            if (tag != next && problems.size() < 10)
            {
                problems.add("tag " + tag + " arrived when " + next + " was due");
            }
            next = tag + 1;
            verdicts[(int)tag] = (byte)(verdict == Verdict.DUPLICATE ? 2 : 1);
        }

        @Override
        public void onError(final long tag, final Throwable failure)
        {
            problems.add("error for tag " + tag + ": " + failure);
            next = tag + 1;
        }
    }

    @ParameterizedTest(name = "{0} longs per slot")
    @ValueSource(ints = {2, 7, 32})
    void sameVerdictsOrderAndTagsAsTheSequentialFilter(final int perSlot)
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] elements = new long[ELEMENTS];
        final boolean[] contains = new boolean[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++)
        {
            elements[i] = random.nextInt(3) == 0 ? random.nextLong(5_000) : random.nextLong(1_000_000);
        }
        final byte[] expected = new byte[ELEMENTS];
        final ByTag listener = new ByTag();
        try (DuplicateFilter sequential = qht(); DuplicateFilter piped = qht())
        {
            final FilterPipeline pipeline = FilterPipeline.builder().ringSize(64).longsPerSlot(perSlot)
                .singleProducer().listener(listener).build();
            for (int from = 0; from < ELEMENTS;)
            {
                final int choice = random.nextInt(10);
                if (choice == 0)
                {
                    // one element, one slot of its own, between packed ones
                    contains[from] = random.nextBoolean();
                    final Operation operation = contains[from] ? Operation.CONTAINS : Operation.STREAM;
                    pipeline.publish(piped, operation, elements[from], from);
                    from++;
                    continue;
                }
                // up to 3,000: more elements than the ring's 64 slots hold at 7 or 32 a slot, so claims wrap
                final int length = Math.min(ELEMENTS - from, random.nextInt(choice == 1 ? 3_000 : 100));
                final Operation operation = choice == 2 ? Operation.CONTAINS : Operation.STREAM;
                for (int i = from; i < from + length; i++)
                {
                    contains[i] = operation == Operation.CONTAINS;
                }
                pipeline.publishBatch(piped, operation, elements, from, length, from);
                from += length;
            }
            pipeline.close();
            assertEquals(ELEMENTS, pipeline.delivered(), "delivered() counts elements, not slots");
            int duplicates = 0;
            for (int i = 0; i < ELEMENTS; i++)
            {
                final boolean duplicate = contains[i] ? sequential.contains(elements[i]) :
                    sequential.stream(elements[i]) == Verdict.DUPLICATE;
                expected[i] = (byte)(duplicate ? 2 : 1);
                duplicates += duplicate ? 1 : 0;
            }
            assertEquals(List.of(), listener.problems, TestSeed.replayHint());
            assertEquals(ELEMENTS, listener.next, "every tag delivered; " + TestSeed.replayHint());
            assertArrayEquals(expected, listener.verdicts, TestSeed.replayHint());
            assertTrue(duplicates > ELEMENTS / 50, "the stream has duplicates: " + duplicates);
            assertEquals(sequential.elements(), piped.elements());
            assertEquals(sequential.duplicates(), piped.duplicates());
        }
    }

    /**
     * {@link FilterPipeline#publishHashes}: elements of any length published by their hashes (the raw feed's way),
     * packed or one to a slot, get exactly the verdicts, order and tags the sequential filter gives their bytes.
     */
    @ParameterizedTest(name = "{0} hashes per slot")
    @ValueSource(ints = {1, 5, 64})
    void hashesGetTheVerdictsOfTheirElements(final int perSlot)
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[][] elements = new byte[ELEMENTS][];
        for (int i = 0; i < ELEMENTS; i++)
        {
            final long n = random.nextInt(3) == 0 ? random.nextLong(5_000) : random.nextLong(1_000_000);
            elements[i] = ("record-" + n + "-" + "x".repeat((int)(n % 40))).getBytes(
                java.nio.charset.StandardCharsets.US_ASCII);
        }
        final byte[] expected = new byte[ELEMENTS];
        final boolean[] contains = new boolean[ELEMENTS];
        final ByTag listener = new ByTag();
        try (DuplicateFilter sequential = qht(); DuplicateFilter piped = qht())
        {
            final FilterPipelineBuilder builder = FilterPipeline.builder().ringSize(64).singleProducer()
                .listener(listener);
            final FilterPipeline pipeline = (perSlot > 1 ? builder.longsPerSlot(perSlot) : builder).build();
            final long[] hashes = new long[3_000];
            for (int from = 0; from < ELEMENTS;)
            {
                final int length = Math.min(ELEMENTS - from, random.nextInt(random.nextInt(5) == 0 ? 3_000 : 100));
                final Operation operation = random.nextInt(8) == 0 ? Operation.CONTAINS : Operation.STREAM;
                for (int i = 0; i < length; i++)
                {
                    contains[from + i] = operation == Operation.CONTAINS;
                    hashes[i] = piped.hash(elements[from + i], 0, elements[from + i].length);
                }
                pipeline.publishHashes(piped, operation, hashes, 0, length, from);
                from += length;
            }
            pipeline.close();
            int duplicates = 0;
            for (int i = 0; i < ELEMENTS; i++)
            {
                final boolean duplicate = contains[i] ? sequential.contains(elements[i], 0, elements[i].length) :
                    sequential.stream(elements[i], 0, elements[i].length) == Verdict.DUPLICATE;
                expected[i] = (byte)(duplicate ? 2 : 1);
                duplicates += duplicate ? 1 : 0;
            }
            assertEquals(List.of(), listener.problems, TestSeed.replayHint());
            assertEquals(ELEMENTS, listener.next, "every tag delivered; " + TestSeed.replayHint());
            assertArrayEquals(expected, listener.verdicts, TestSeed.replayHint());
            assertTrue(duplicates > ELEMENTS / 50, "the stream has duplicates: " + duplicates);
            assertEquals(sequential.elements(), piped.elements());
            assertEquals(sequential.duplicates(), piped.duplicates());
        }
    }

    @Test
    void aFailingFilterReportsEveryPackedElementInItsPlace()
    {
        final ByTag listener = new ByTag();
        try (DuplicateFilter open = qht())
        {
            final DuplicateFilter closed = qht();
            closed.close();
            final FilterPipeline pipeline = FilterPipeline.builder().longsPerSlot(4).listener(listener).build();
            pipeline.publishBatch(open, Operation.STREAM, new long[] {1, 2, 3}, 0, 3, 0);
            pipeline.publishBatch(closed, Operation.STREAM, new long[] {4, 5, 6, 7, 8, 9}, 0, 6, 3);
            pipeline.publishBatch(open, Operation.STREAM, new long[] {1, 10}, 0, 2, 9);
            pipeline.close();
            assertEquals(11, listener.next);
            assertEquals(6, listener.problems.size(), listener.problems.toString());
            for (int i = 0; i < 6; i++)
            {
                assertTrue(listener.problems.get(i).startsWith("error for tag " + (3 + i) + ":"),
                    listener.problems.toString());
            }
            assertEquals(2, listener.verdicts[9], "1 was streamed before: DUPLICATE");
            assertEquals(1, listener.verdicts[10]);
        }
    }

    @Test
    void packingNeedsTheFusedHandler()
    {
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().longsPerSlot(0));
        assertThrows(IllegalArgumentException.class, () -> FilterPipeline.builder().longsPerSlot(4).inserters(2)
            .listener((tag, verdict) -> { }).build());
    }

    private static DuplicateFilter qht()
    {
        return Filters.builder(FilterKind.QHT).memoryBits(1 << 16).seed(7).create();
    }
}
