package io.ddf.engine.window;

import io.ddf.engine.FilterKind;
import io.ddf.engine.UnimplementedDefinition;

/** Queuing construction (not implemented yet). */
public final class QueueDefinition extends UnimplementedDefinition
{
    /** The definition. */
    public QueueDefinition()
    {
        super(FilterKind.QUEUE);
    }
}
