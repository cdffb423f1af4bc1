package io.ddf.engine.window;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** SHF (not implemented yet). */
public final class ShfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public ShfDefinition()
    {
        super(FilterKind.SHF);
    }
}
