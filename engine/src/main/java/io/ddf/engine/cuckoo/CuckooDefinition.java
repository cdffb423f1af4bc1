package io.ddf.engine.cuckoo;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Streaming cuckoo filter (not implemented yet). */
public final class CuckooDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public CuckooDefinition()
    {
        super(FilterKind.CUCKOO);
    }
}
