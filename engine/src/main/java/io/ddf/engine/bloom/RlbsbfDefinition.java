package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** RLBSBF (not implemented yet). */
public final class RlbsbfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public RlbsbfDefinition()
    {
        super(FilterKind.RLBSBF);
    }
}
