package io.ddf.engine.scaling;

import io.ddf.persistence.testing.TestSeed;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "The error rate is a promise", measured on ddf's scaling filter as {@code BF.RESERVE} makes it: filled to its
 * capacity with distinct items (and to three times it, after two growths), the share of distinct non-members it
 * answers present is at most the error rate asked for, and every member answers present. Capacities from 100 to
 * 10^6 and error rates from 0.1 to 10^-6; RedisBloom's own test sizes among them (1024 items at 0.1 to 10^-4,
 * probed with ten times as many non-members). Probes: at least 100 000, and 20 / ε where that is more (10^7 at most):
 * enough that a rate at the promise would show some twenty false positives.
 */
class ChainErrorRateTest
{
    @TempDir
    Path dir;

    static List<Arguments> shapes()
    {
        final List<Arguments> shapes = new ArrayList<>();
        for (final long capacity : new long[] {100, 1024, 10_000, 100_000, 1_000_000})
        {
            for (final double error : new double[] {0.1, 0.05, 0.01, 0.001, 0.0001})
            {
                shapes.add(Arguments.of(capacity, error));
            }
        }
        shapes.add(Arguments.of(1_000L, 0.00001));
        shapes.add(Arguments.of(100_000L, 0.00001));
        shapes.add(Arguments.of(1_000L, 0.000001));
        shapes.add(Arguments.of(100_000L, 0.000001));
        return shapes;
    }

    @ParameterizedTest(name = "capacity {0}, error {1}")
    @MethodSource("shapes")
    void theFalsePositiveRateAtTheCapacityIsAtMostTheErrorRate(final long capacity, final double error)
    {
        final SplittableRandom random = TestSeed.splittable().split();
        final long salt = random.nextLong();
        try (BloomChain chain = BloomChain.create(dir.resolve("c"), capacity, error, false, 2, random.nextLong()))
        {
            final UnsafeBuffer item = new UnsafeBuffer(new byte[8]);
            for (long i = 0; i < capacity; i++)
            {
                item.putLong(0, salt + i, ByteOrder.LITTLE_ENDIAN);
                final AddResult result = chain.add(item, 0, 8);
                assertTrue(result == AddResult.ADDED || result == AddResult.EXISTS, "item " + i + ": " + result);
            }
            assertEquals(1, chain.layerCount(), "the capacity fits the first layer");
            final long probes = Math.min(10_000_000, Math.max(100_000, (long)Math.ceil(20 / error)));
            assertRate(chain, item, salt, capacity, probes, error, "at the capacity");
            for (long i = capacity; i < 3 * capacity; i++)
            {
                item.putLong(0, salt + i, ByteOrder.LITTLE_ENDIAN);
                chain.add(item, 0, 8);
            }
            assertTrue(chain.layerCount() >= 2, "three times the capacity grew the chain");
            assertRate(chain, item, salt, 3 * capacity, Math.max(probes, 1_000_000), error, "at 3x the capacity");
        }
    }

    private static void assertRate(final BloomChain chain, final UnsafeBuffer item, final long salt,
        final long members, final long probes, final double error, final String when)
    {
        for (long i = 0; i < members; i++)
        {
            item.putLong(0, salt + i, ByteOrder.LITTLE_ENDIAN);
            assertTrue(chain.contains(item, 0, 8), "member " + i + " answered absent " + when + " " +
                TestSeed.replayHint());
        }
        long falsePositives = 0;
        for (long i = 0; i < probes; i++)
        {
            item.putLong(0, salt + members + 1_000_000_000L + i, ByteOrder.LITTLE_ENDIAN);
            falsePositives += chain.contains(item, 0, 8) ? 1 : 0;
        }
        final double rate = (double)falsePositives / probes;
        assertTrue(rate <= error, when + ": " + falsePositives + " false positives in " + probes + " probes = " +
            rate + " > " + error + " " + TestSeed.replayHint());
    }
}
