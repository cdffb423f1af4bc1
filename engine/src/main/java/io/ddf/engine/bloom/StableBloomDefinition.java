package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Stable Bloom Filter (not implemented yet). */
public final class StableBloomDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public StableBloomDefinition()
    {
        super(FilterKind.SBF);
    }
}
