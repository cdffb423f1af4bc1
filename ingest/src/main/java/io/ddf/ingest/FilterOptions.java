package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.KindParameter;
import io.ddf.engine.Filters;
import io.ddf.engine.TimeWindow;
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
    @Option(names = "--filter", paramLabel = "KIND", converter = KindConverter.class,
        description = "Filter kind (see below; --window TIME: fifo-bloom).")
    private FilterKind kind;

    @Option(names = "--seed", paramLabel = "N", description = "Hash seed (default: random, kept in the file).")
    private Long seed;

    @Option(names = "--keyed", description = "Keyed SipHash with a secret key, for adversarial input.")
    private boolean keyed;

    @Option(names = "--file", paramLabel = "PATH", description = "Keep the state in this file; reopen if it exists.")
    private Path file;

    private final Map<String, Number> kindParameters = new LinkedHashMap<>();
    /** The option that takes a count or a time: {@code --window 65536} (elements) or {@code --window 24h}. */
    static final String WINDOW = "window";
    /** What a window of time becomes: fifo-bloom's parameter of the window in milliseconds. */
    static final String WINDOW_MILLIS = "window-ms";

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
            if (param.name().equals(WINDOW))
            {
                command.addOption(windowOption(options));
                continue;
            }
            command.addOption(OptionSpec.builder("--" + param.name())
                .paramLabel(param.real() ? "X" : "N")
                .type(param.real() ? Double.class : Long.class)
                .description(param.description())
                .setter(setter)
                .build());
        }
    }

    /**
     * {@code --window}: a whole number is the sliding window in elements of the windowed kinds and the queuing
     * construction (as before); a duration ({@code 90s}, {@code 15m}, {@code 24h}, {@code 7d}) is a window of time,
     * fifo-bloom's (each line remembered that long, as long as at most --capacity new lines come within it).
     */
    private static OptionSpec windowOption(final FilterOptions options)
    {
        final ISetter setter = new ISetter()
        {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T set(final T value)
            {
                if (value != null)
                {
                    final String text = value.toString().trim();
                    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit))
                    {
                        options.kindParameters.put(WINDOW, Long.parseLong(text));
                    }
                    else
                    {
                        options.kindParameters.put(WINDOW_MILLIS, TimeWindow.parseDuration(text).toMillis());
                    }
                }
                return null;
            }
        };
        return OptionSpec.builder("--" + WINDOW)
            .paramLabel("N|TIME")
            .type(String.class)
            .converters((ITypeConverter<String>)value ->
            {
                final String text = value.trim();
                if (text.isEmpty() || !text.chars().allMatch(Character::isDigit))
                {
                    try
                    {
                        TimeWindow.parseDuration(text);
                    }
                    catch (final IllegalArgumentException e)
                    {
                        throw new TypeConversionException("a number of elements or a time: " + e.getMessage());
                    }
                }
                return text;
            })
            .description("Elements; or a time (90s, 15m, 24h, 7d): fifo-bloom.")
            .setter(setter)
            .build();
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
        lines.add("fifo-bloom or aged-cuckoo --window TIME: each line remembered that long (90s, 15m, 24h, 7d).");
        return lines;
    }

    /** @return the filter kind asked for: with a window of time and no --filter, fifo-bloom; else null if none. */
    public FilterKind kind()
    {
        return kind == null && timeWindow() ? FilterKind.FIFO_BLOOM : kind;
    }

    /** @return whether --window was given a time. */
    public boolean timeWindow()
    {
        return kindParameters.containsKey(WINDOW_MILLIS);
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
        final FilterKind kind = kind();
        if (timeWindow() && !kind.keepsTimeWindow())
        {
            throw new IllegalArgumentException("--window with a time is fifo-bloom's and aged-cuckoo's (--filter " +
                "fifo-bloom, or no --filter, or --filter aged-cuckoo); " + kind.cliName() + " takes --window N, a " +
                "number of elements (with --subfilters L: the queuing construction)");
        }
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
