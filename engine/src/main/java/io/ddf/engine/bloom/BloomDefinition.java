package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Bloom filter (not implemented yet). */
public final class BloomDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public BloomDefinition()
    {
        super(FilterKind.BLOOM);
    }
}
