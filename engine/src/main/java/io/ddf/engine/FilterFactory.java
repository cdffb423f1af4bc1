package io.ddf.engine;

import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Path;

/** Maps a file to the filter implementation its header names. */
final class FilterFactory
{
    private FilterFactory()
    {
    }

    static DuplicateFilter create(final Path path, final FilterFileSpec spec)
    {
        final FilterParameters parameters = FilterParameters.fromSpec(spec);
        final FilterFile file = FilterFile.create(path, spec);
        return wrap(file, parameters, false);
    }

    static DuplicateFilter open(final Path path)
    {
        final FilterFile file = FilterFile.open(path);
        final FilterParameters parameters;
        try
        {
            parameters = parametersOf(file.spec(), path);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
        return wrap(file, parameters, true);
    }

    /**
     * Reads and sanity-checks the parameters a header holds.
     *
     * @param spec the header.
     * @param path the file, for messages.
     * @return the parameters.
     * @throws FilterFileException when the header names an unknown kind or hash, or inconsistent parameters.
     */
    static FilterParameters parametersOf(final FilterFileSpec spec, final Path path)
    {
        final FilterParameters parameters;
        try
        {
            parameters = FilterParameters.fromSpec(spec);
        }
        catch (final IllegalArgumentException e)
        {
            throw new FilterFileException(FilterFileException.Reason.UNSUPPORTED_VERSION, path,
                e.getMessage() + ": made by a newer ddf?", e);
        }
        final boolean sane = parameters.rows() >= 1 && parameters.buckets() >= 1 &&
            parameters.slotBits() >= 1 && parameters.slotBits() <= FilterBuilder.MAX_SLOT_BITS &&
            spec.param(FilterParameters.P_SLOT_BITS) == parameters.slotBits() &&
            parameters.layout().tableBytes() == spec.tableLength();
        if (!sane)
        {
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path,
                "header parameters are inconsistent: " + spec);
        }
        return parameters;
    }

    private static DuplicateFilter wrap(final FilterFile file, final FilterParameters parameters, final boolean reopened)
    {
        try
        {
            if (parameters.layout().wide())
            {
                final WideQuotientFilter filter = new WideQuotientFilter(file, parameters);
                if (reopened)
                {
                    filter.clearLocks();
                }
                return filter;
            }
            return new NarrowQuotientFilter(file, parameters);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
    }
}
