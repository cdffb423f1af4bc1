package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.KindParameter;
import io.ddf.engine.Filters;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options that choose and size a filter, shared by the commands that stream ({@code pipe}, later
 * {@code serve}). Besides the fixed ones below, every parameter of every filter kind becomes an option
 * ({@link #addKindOptions}), from the kinds' own definitions. Options not given are not passed to the builder, so
 * the kind's defaults apply and an existing file is checked only against what was asked for.
 */
public final class FilterOptions
{
    @Option(names = "--filter", required = true, paramLabel = "KIND", converter = KindConverter.class,
        description = "Filter kind (see the list below).")
    private FilterKind kind;

    @Option(names = "--seed", paramLabel = "N", description = "Hash seed (default: random, kept in the file).")
    private Long seed;

    @Option(names = "--keyed", description = "Keyed SipHash with a secret key, for adversarial input.")
    private boolean keyed;

    @Option(names = "--file", paramLabel = "PATH", description = "Keep the state in this file; reopen if it exists.")
    private Path file;

    private final Map<String, Number> kindParameters = new LinkedHashMap<>();

    /**
     * Adds one option per parameter name of the filter kinds to a command that mixes these options in.
     *
     * @param command the command's spec.
     * @param options the command's instance of these options, which receives the values.
     */
    public static void addKindOptions(final CommandSpec command, final FilterOptions options)
    {
        for (final Map.Entry<String, Map.Entry<KindParameter, List<FilterKind>>> e :
            FilterKind.options().entrySet())
        {
            final KindParameter param = e.getValue().getKey();
            final ISetter setter = new ISetter()
            {
                @Override
                @SuppressWarnings("unchecked")
                public <T> T set(final T value)
                {
                    if (value != null)
                    {
                        options.kindParameters.put(param.name(), (Number)value);
                    }
                    return null;
                }
            };
            command.addOption(OptionSpec.builder("--" + param.name())
                .paramLabel(param.real() ? "X" : "N")
                .type(param.real() ? Double.class : Long.class)
                .description(param.description())
                .setter(setter)
                .build());
        }
    }

    /**
     * @return one line per kind naming the options it takes, for the usage footer.
     */
    public static List<String> kindsFooter()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("Filter kinds and their options:");
        for (final FilterKind kind : FilterKind.values())
        {
            if (kind == FilterKind.QUEUE)
            {
                continue;
            }
            final StringBuilder line = new StringBuilder("  ").append(kind.cliName()).append(':');
            for (final KindParameter param : kind.parameters())
            {
                line.append(" --").append(param.name());
            }
            lines.add(line.toString());
        }
        lines.add("Any kind with --window w --subfilters L: the queuing construction (L subfilters of w/L each).");
        return lines;
    }

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

    /** @return the kind parameters given on the command line, by name, in the order given. */
    public Map<String, Number> kindParameters()
    {
        return java.util.Collections.unmodifiableMap(kindParameters);
    }

    /** @return the seed given, or null. */
    public Long seed()
    {
        return seed;
    }

    /** @return whether --keyed was given. */
    public boolean keyed()
    {
        return keyed;
    }

    /** @return a builder given exactly the options that were set, and the file (null when none). */
    public FilterBuilder builder()
    {
        final FilterBuilder builder = Filters.builder(kind);
        kindParameters.forEach((name, value) ->
        {
            if (value instanceof Double)
            {
                builder.param(name, value.doubleValue());
            }
            else
            {
                builder.param(name, value.longValue());
            }
        });
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
