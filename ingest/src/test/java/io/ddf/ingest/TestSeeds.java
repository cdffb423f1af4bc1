package io.ddf.ingest;

/** Seeds for randomised tests: printed, and fixed with {@code -Dddf.test.seed=N} to reproduce a run. */
final class TestSeeds
{
    private TestSeeds()
    {
    }

    /**
     * @param test the test's name, printed with the seed.
     * @return the seed to use.
     */
    static long seed(final String test)
    {
        final String fixed = System.getProperty("ddf.test.seed");
        final long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime();
        System.out.println(test + ": seed=" + seed + " (rerun with -Dddf.test.seed=" + seed + ")");
        return seed;
    }
}
