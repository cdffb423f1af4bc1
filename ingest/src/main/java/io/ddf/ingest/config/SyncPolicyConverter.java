package io.ddf.ingest.config;

import io.ddf.engine.SyncPolicy;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --fsync always|everysec|no} (pipe and serve): the error names the three choices. */
public final class SyncPolicyConverter implements ITypeConverter<SyncPolicy>
{
    @Override
    public SyncPolicy convert(final String value)
    {
        try
        {
            return SyncPolicy.parse(value);
        }
        catch (final IllegalArgumentException e)
        {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
