package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** A2 (not implemented yet). */
public final class A2Definition extends UnimplementedDefinition
{
    /** The definition. */
    public A2Definition()
    {
        super(FilterKind.A2);
    }
}
