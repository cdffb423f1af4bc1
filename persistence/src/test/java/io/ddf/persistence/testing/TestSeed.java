package io.ddf.persistence.testing;

import java.util.Random;
import java.util.SplittableRandom;

/**
 * The one seed policy of the test suite: every randomised test draws its randomness from {@link #seed()}, a fixed
 * default unless {@code -Dddf.test.seed=N} overrides it. A run is therefore the same run every time, and a failure
 * seen with another seed is replayed by passing that seed; {@link SeedReporter} (registered for every test class of
 * every module) names the seed beside any failure, so nothing is printed while tests pass.
 *
 * <pre>
 *   mvn -B -ntp -pl engine -am test -Dtest='CuckooFilterTest' -Dsurefire.failIfNoSpecifiedTests=false \
 *       -Dddf.test.seed=12345
 * </pre>
 */
public final class TestSeed
{
    /** The system property that overrides the default seed (decimal, or hexadecimal with {@code 0x}). */
    public static final String PROPERTY = "ddf.test.seed";

    /** The seed of a run without {@link #PROPERTY}. */
    public static final long DEFAULT = 0x5EED_0DDFL;

    private TestSeed()
    {
    }

    /**
     * @return the seed of this run: {@link #PROPERTY} if set, else {@link #DEFAULT}.
     * @throws IllegalArgumentException naming the property when its value is not a number, rather than silently
     *                                  running with the default (which would not replay what was asked).
     */
    public static long seed()
    {
        final String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank())
        {
            return DEFAULT;
        }
        try
        {
            return Long.decode(value.trim());
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + " is not a long", e);
        }
    }

    /** @return a {@link SplittableRandom} seeded with {@link #seed()}. */
    public static SplittableRandom splittable()
    {
        return new SplittableRandom(seed());
    }

    /** @return a {@link Random} seeded with {@link #seed()}. */
    public static Random random()
    {
        return new Random(seed());
    }

    /** @return the words that replay a failure, for messages: {@code -Dddf.test.seed=N}. */
    public static String replayHint()
    {
        return "-D" + PROPERTY + "=" + seed();
    }
}
