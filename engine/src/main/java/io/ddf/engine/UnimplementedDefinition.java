package io.ddf.engine;

import java.util.List;

/** Placeholder for a kind whose definition is not written yet: refuses every use with a clear message. */
public class UnimplementedDefinition extends KindDefinition
{
    private final FilterKind kind;

    /**
     * @param kind the kind not yet implemented.
     */
    protected UnimplementedDefinition(final FilterKind kind)
    {
        this.kind = kind;
    }

    @Override
    public final FilterKind kind()
    {
        return kind;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of();
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        throw unsupported();
    }

    @Override
    public void check(final long[] slots)
    {
        throw unsupported();
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        throw unsupported();
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        throw unsupported();
    }

    private IllegalArgumentException unsupported()
    {
        return new IllegalArgumentException("filter kind " + kind.cliName() + " is not implemented yet");
    }
}
