package io.ddf.engine.internal;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.HashAlgorithm;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Path;

/** Maps a file to the filter its header describes. */
public final class FilterFactory
{
    private FilterFactory()
    {
    }

    public static DuplicateFilter create(final Path path, final FilterFileSpec spec, final FilterParameters parameters)
    {
        final FilterFile file = FilterFile.create(path, spec);
        return wrap(file, parameters, false);
    }

    public static DuplicateFilter open(final Path path)
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
     * Reads and checks the parameters a header holds.
     *
     * @param spec the header.
     * @param path the file, for messages.
     * @return the parameters.
     * @throws FilterFileException when the header names an unknown kind or hash, or inconsistent parameters.
     */
    public static FilterParameters parametersOf(final FilterFileSpec spec, final Path path)
    {
        try
        {
            FilterKind.fromCode(spec.kind());
            HashAlgorithm.fromCode(spec.hashAlgorithm());
        }
        catch (final IllegalArgumentException e)
        {
            throw new FilterFileException(FilterFileException.Reason.UNSUPPORTED_VERSION, path,
                e.getMessage() + ": made by a newer ddf?", e);
        }
        try
        {
            return FilterParameters.fromSpec(spec);
        }
        catch (final IllegalArgumentException e)
        {
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path,
                "header parameters are inconsistent: " + e.getMessage(), e);
        }
    }

    private static DuplicateFilter wrap(final FilterFile file, final FilterParameters parameters, final boolean reopened)
    {
        try
        {
            if (file.stateLength() < FilterCounters.LENGTH + KindDefinition.HEADER_STATE_WORDS * Long.BYTES)
            {
                throw new FilterFileException(FilterFileException.Reason.CORRUPT, file.path(),
                    "state region of " + file.stateLength() + " bytes is too small");
            }
            final MappedWords table = new MappedWords(file.tableAddress(), file.tableLength() / Long.BYTES);
            final MappedWords headerState = new MappedWords(file.stateAddress() + FilterCounters.LENGTH,
                KindDefinition.HEADER_STATE_WORDS);
            final FilterCore core = parameters.definition().core(parameters.slots(), table, headerState);
            if (reopened)
            {
                core.recover();
            }
            return new MappedFilter(file, parameters, core);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
    }
}
