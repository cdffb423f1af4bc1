package io.ddf.engine.dsqf;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Dynamic SQF (not implemented yet). */
public final class DynamicSqfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public DynamicSqfDefinition()
    {
        super(FilterKind.DSQF);
    }
}
