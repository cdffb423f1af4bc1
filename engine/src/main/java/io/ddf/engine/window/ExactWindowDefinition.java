package io.ddf.engine.window;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Exact windowed filter (not implemented yet). */
public final class ExactWindowDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public ExactWindowDefinition()
    {
        super(FilterKind.EXACT_WINDOW);
    }
}
