package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.nio.file.Path;

/**
 * The options that choose and size a filter, shared by the commands that stream ({@code pipe}, later
 * {@code serve}). Options not given stay null and are not passed to the builder, so the engine's defaults apply
 * and an existing file is checked only against what was asked for.
 */
public final class FilterOptions
{
    @Option(names = "--filter", required = true, paramLabel = "KIND", converter = KindConverter.class,
        description = "Filter kind: qht, qhtd, qqhtd or sqf.")
    private FilterKind kind;

    @Option(names = "--memory-bits", paramLabel = "M", description = "Table memory in bits (default 2^26).")
    private Long memoryBits;

    @Option(names = "--rows", paramLabel = "N", description = "Number of rows, instead of --memory-bits.")
    private Long rows;

    @Option(names = "--buckets", paramLabel = "k", description = "Cells per row (default 4).")
    private Integer buckets;

    @Option(names = "--fingerprint-bits", paramLabel = "s", description = "Fingerprint bits, QHT kinds (default 16).")
    private Integer fingerprintBits;

    @Option(names = "--remainder-bits", paramLabel = "r", description = "Remainder bits, SQF (default 16).")
    private Integer remainderBits;

    @Option(names = "--reduced-bits", paramLabel = "r'", description = "Reduced-remainder bits, SQF, below r.")
    private Integer reducedBits;

    @Option(names = "--seed", paramLabel = "N", description = "Hash seed (default: random, kept in the file).")
    private Long seed;

    @Option(names = "--keyed", description = "Keyed SipHash with a secret key, for adversarial input.")
    private boolean keyed;

    @Option(names = "--file", paramLabel = "PATH", description = "Keep the state in this file; reopen if it exists.")
    private Path file;

    /** @return the filter kind asked for. */
    public FilterKind kind()
    {
        return kind;
    }

    /** @return the state file, or null for an anonymous temporary one. */
    public Path file()
    {
        return file;
    }

    /** @return a builder given exactly the options that were set, and the file (null when none). */
    public FilterBuilder builder()
    {
        final FilterBuilder builder = Filters.builder(kind);
        if (memoryBits != null)
        {
            builder.memoryBits(memoryBits);
        }
        if (rows != null)
        {
            builder.rows(rows);
        }
        if (buckets != null)
        {
            builder.buckets(buckets);
        }
        if (fingerprintBits != null)
        {
            builder.fingerprintBits(fingerprintBits);
        }
        if (remainderBits != null)
        {
            builder.remainderBits(remainderBits);
        }
        if (reducedBits != null)
        {
            builder.reducedBits(reducedBits);
        }
        if (seed != null)
        {
            builder.seed(seed);
        }
        if (keyed)
        {
            builder.keyed(true);
        }
        return builder.file(file);
    }

    /** Converts a command-line name to a {@link FilterKind}, any case. */
    static final class KindConverter implements ITypeConverter<FilterKind>
    {
        @Override
        public FilterKind convert(final String value)
        {
            try
            {
                return FilterKind.fromName(value);
            }
            catch (final IllegalArgumentException e)
            {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
