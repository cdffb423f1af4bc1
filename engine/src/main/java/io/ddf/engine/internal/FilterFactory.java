package io.ddf.engine.internal;

import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Path;
import java.util.Arrays;

/** Maps a file to the filter its header describes, and reads and checks what a header says. */
public final class FilterFactory
{
    private FilterFactory()
    {
    }

    /**
     * @param path       the file to create, or null for an anonymous one.
     * @param spec       its header.
     * @param definition the kind's definition (the spec's kind code).
     * @param slots      resolved parameters (the spec's parameter slots).
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots)
    {
        return wrap(FilterFile.create(path, spec), definition, slots, false);
    }

    /**
     * @param path an existing filter file.
     * @return the filter, its state as the file holds it, recovered from any crash mid-update.
     * @throws FilterFileException when the file is missing, foreign, corrupt, truncated, unready, held by another
     *                             writer, or its header names an unknown kind or hash or inconsistent parameters.
     */
    public static MappedFilter open(final Path path)
    {
        final FilterFile file = FilterFile.open(path);
        final KindDefinition definition;
        final long[] slots;
        try
        {
            definition = definitionOf(file.spec(), path);
            slots = slotsOf(file.spec(), definition, path);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
        return wrap(file, definition, slots, true);
    }

    /**
     * @param spec a header.
     * @param path the file, for messages.
     * @return the definition of the kind it names, whose hash this version knows.
     * @throws FilterFileException (UNSUPPORTED_VERSION) when the header names an unknown kind or hash.
     */
    public static KindDefinition definitionOf(final FilterFileSpec spec, final Path path)
    {
        final KindDefinition definition = FilterKinds.definition(spec.kind());
        final String unknown = definition == null ? "unknown filter kind code " + spec.kind() :
            spec.hashAlgorithm() != ElementHasher.XXH3 && spec.hashAlgorithm() != ElementHasher.SIPHASH24_KEYED ?
            "unknown hash algorithm code " + spec.hashAlgorithm() : null;
        if (unknown != null)
        {
            throw new FilterFileException(FilterFileException.Reason.UNSUPPORTED_VERSION, path,
                unknown + ": made by a newer ddf?", new IllegalArgumentException(unknown));
        }
        return definition;
    }

    /**
     * Reads and checks the parameter slots a header holds.
     *
     * @param spec       the header.
     * @param definition the kind it names.
     * @param path       the file, for messages.
     * @return the slots, one per parameter of the definition.
     * @throws FilterFileException (CORRUPT) when they are inconsistent.
     */
    public static long[] slotsOf(final FilterFileSpec spec, final KindDefinition definition, final Path path)
    {
        try
        {
            final long[] slots = Arrays.copyOf(spec.params(), definition.params().size());
            for (int i = slots.length; i < spec.params().length; i++)
            {
                if (spec.params()[i] != 0)
                {
                    throw new IllegalArgumentException("parameter slot " + i + " is set but " + definition.name() +
                        " has " + slots.length + " parameters");
                }
            }
            definition.check(slots);
            if (definition.tableBytes(slots) != spec.tableLength())
            {
                throw new IllegalArgumentException("table of " + spec.tableLength() + " bytes where the parameters " +
                    "need " + definition.tableBytes(slots));
            }
            return slots;
        }
        catch (final IllegalArgumentException e)
        {
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path,
                "header parameters are inconsistent: " + e.getMessage(), e);
        }
    }

    private static MappedFilter wrap(final FilterFile file, final KindDefinition definition, final long[] slots,
        final boolean reopened)
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
            final FilterCore core = definition.core(slots, table, headerState);
            if (reopened)
            {
                core.recover();
            }
            return new MappedFilter(file, definition, slots, core);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
    }
}
