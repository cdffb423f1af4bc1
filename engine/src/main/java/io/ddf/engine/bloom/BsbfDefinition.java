package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** BSBF (not implemented yet). */
public final class BsbfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public BsbfDefinition()
    {
        super(FilterKind.BSBF);
    }
}
