package io.ddf.engine.window;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** CSHF (not implemented yet). */
public final class CshfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public CshfDefinition()
    {
        super(FilterKind.CSHF);
    }
}
