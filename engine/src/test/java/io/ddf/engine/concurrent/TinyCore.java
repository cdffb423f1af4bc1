package io.ddf.engine.concurrent;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.SpiAccess;
import io.ddf.engine.spi.CountingCore;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;

/**
 * A kind's core over plain direct memory, built from a {@link FilterBuilder} exactly as a filter file's core is, but
 * without a file: Lincheck makes a fresh instance for every invocation (thousands per test) and never closes one,
 * so the memory must be reclaimed by the garbage collector (a direct buffer), not by a close.
 */
final class TinyCore
{
    // Held so the direct memory lives as long as this object: Lincheck holds the test instance that holds it.
    private final DirectRegion table;
    private final DirectRegion headerState;
    private final FilterCore core;

    /**
     * @param builder the kind and its (small) parameters; the seed is fixed, so every instance is the same filter.
     */
    TinyCore(final FilterBuilder builder)
    {
        final FilterParameters parameters = builder.seed(0x11C4EC4L).parameters();
        table = new DirectRegion(Math.max(64, (parameters.tableBytes() + 63) / 64 * 64));
        headerState = new DirectRegion(KindDefinition.HEADER_STATE_WORDS * Long.BYTES);
        core = SpiAccess.definition(parameters).core(SpiAccess.slots(parameters), table.words(),
            headerState.words());
    }

    /**
     * @param key a small operation argument.
     * @return a well-mixed 64-bit hash of it (SplitMix64's finaliser), so that keys spread over rows and bits.
     */
    static long hash(final int key)
    {
        long z = (key + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    boolean stream(final int key)
    {
        return core.stream(hash(key));
    }

    boolean contains(final int key)
    {
        return core.contains(hash(key));
    }

    void add(final int key)
    {
        ((CountingCore)core).add(hash(key));
    }

    boolean delete(final int key)
    {
        return ((CountingCore)core).delete(hash(key));
    }

    int count(final int key)
    {
        return ((CountingCore)core).count(hash(key));
    }
}
