package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** b_DBF (not implemented yet). */
public final class BdbfDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public BdbfDefinition()
    {
        super(FilterKind.BDBF);
    }
}
