package io.ddf.engine.bloom;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.SpiAccess;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;

/**
 * A kind's core over plain direct memory instead of a mapped file, for tests that look inside its region through
 * package-private accessors. Elements are given as their 64-bit hashes.
 */
final class CoreHarness
{
    final long[] slots;
    final KindDefinition definition;
    final MappedWords region;
    final FilterCore core;
    @SuppressWarnings("unused")
    private final DirectRegion memory; // keeps the region's memory reachable

    private CoreHarness(final FilterBuilder builder)
    {
        final FilterParameters parameters = builder.parameters();
        this.slots = SpiAccess.slots(parameters);
        this.definition = SpiAccess.definition(parameters);
        final long bytes = definition.tableBytes(slots);
        this.memory = new DirectRegion(bytes);
        this.region = memory.words();
        this.core = definition.core(slots, region, null);
    }

    /**
     * @param builder the filter's parameters.
     * @return its core over fresh zeroed memory.
     */
    static CoreHarness of(final FilterBuilder builder)
    {
        return new CoreHarness(builder);
    }
}
