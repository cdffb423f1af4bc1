package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** RSBF (not implemented yet). */
public final class RsbfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public RsbfDefinition()
    {
        super(FilterKind.RSBF);
    }
}
