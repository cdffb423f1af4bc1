package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** BSBFSD (not implemented yet). */
public final class BsbfsdDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public BsbfsdDefinition()
    {
        super(FilterKind.BSBFSD);
    }
}
