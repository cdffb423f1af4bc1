package io.ddf.bench.accuracy;

import io.ddf.bench.reference.ReferenceFilter;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One filter to measure: a kind and its parameters, written {@code [LABEL@]KIND[:NAME=VALUE,...]}, e.g.
 * {@code qht:buckets=1,fingerprint-bits=3} or {@code S=4@qht:buckets=1,fingerprint-bits=2}. {@code subfilters=L}
 * makes it a queued filter (seed 001 §5). A value {@code X*M} is X times the memory of the run, rounded (e.g. an A2
 * window sized from its memory). The memory and, for kinds that take one, the window come from the run unless
 * given here.
 *
 * <p>Two parameters are the harness's own, not the kind's: {@code per-item-ms=X} streams the i-th element at the time
 * i·X ms ({@link SteadyTime}: a steady rate, for a filter with a window of time on event time), and {@code own-size=1}
 * leaves the filter to size itself (the run's memory is not given to it). A kind may also be a bench reference design
 * ({@link ReferenceKind}: {@code apbf}, {@code apbf-time}, {@code rotating-bloom}, {@code rotating-bloom-time}), then
 * {@code kind} is null and {@code reference} says which.
 *
 * @param label     the name in tables and plots.
 * @param kind      the kind, or null for a reference design.
 * @param params    the parameters as written, in order.
 * @param reference the reference design, or null for a ddf kind.
 */
public record FilterSpec(String label, FilterKind kind, Map<String, String> params, ReferenceKind reference)
{
    /** The harness's own parameters, not passed to the kind. */
    private static final java.util.Set<String> HARNESS_PARAMS = java.util.Set.of("per-item-ms", "own-size");

    /**
     * A ddf kind's spec.
     *
     * @param label  the name in tables and plots.
     * @param kind   the kind.
     * @param params the parameters as written, in order.
     */
    public FilterSpec(final String label, final FilterKind kind, final Map<String, String> params)
    {
        this(label, kind, params, null);
    }

    /**
     * @param labels a label per spec.
     * @param specs  {@code KIND[:NAME=VALUE,...]} texts, in the order of the labels.
     * @return the parsed specs, labelled.
     */
    static List<FilterSpec> labelled(final String[] labels, final String[] specs)
    {
        if (labels.length != specs.length)
        {
            throw new IllegalArgumentException(labels.length + " labels for " + specs.length + " specs");
        }
        final List<FilterSpec> filters = new ArrayList<>();
        for (int f = 0; f < labels.length; f++)
        {
            filters.add(parse(labels[f] + "@" + specs[f]));
        }
        return filters;
    }

    /**
     * @param text {@code [LABEL@]KIND[:NAME=VALUE,...]}.
     * @return the spec.
     * @throws IllegalArgumentException for an unknown kind or a malformed parameter.
     */
    public static FilterSpec parse(final String text)
    {
        final int at = text.indexOf('@');
        final String body = at >= 0 ? text.substring(at + 1) : text;
        final int colon = body.indexOf(':');
        final String name = colon >= 0 ? body.substring(0, colon).trim() : body.trim();
        final ReferenceKind reference = ReferenceKind.fromName(name);
        final FilterKind kind = reference == null ? FilterKind.fromName(name) : null;
        final Map<String, String> params = new LinkedHashMap<>();
        if (colon >= 0 && colon + 1 < body.length())
        {
            for (final String pair : body.substring(colon + 1).split(","))
            {
                final int eq = pair.indexOf('=');
                if (eq <= 0)
                {
                    throw new IllegalArgumentException("expected NAME=VALUE in '" + text + "', got '" + pair + "'");
                }
                final String value = pair.substring(eq + 1).trim();
                value(value, 1); // fail early on a malformed value
                params.put(pair.substring(0, eq).trim(), value);
            }
        }
        return new FilterSpec(at >= 0 ? text.substring(0, at) : body, kind, params, reference);
    }

    /** @return whether this is a queued filter (it has subfilters). */
    public boolean queued()
    {
        return params.containsKey("subfilters");
    }

    /** @return L for a queued filter, 0 otherwise. */
    public long subfilters()
    {
        return queued() ? (long)value(params.get("subfilters"), 0).doubleValue() : 0;
    }

    /** @return whether the filter takes a window (a windowed kind or a queued filter). */
    public boolean takesWindow()
    {
        return reference == null && (queued() || kind.takes("window"));
    }

    /** @return whether the filter takes a memory size (the run's). */
    public boolean takesMemory()
    {
        if (reference != null)
        {
            return reference.takesMemory(params);
        }
        return !params.containsKey("own-size") && (queued() || kind.takes("memory-bits"));
    }

    /**
     * @param memoryBits the run's memory.
     * @param runWindow  the run's window, 0 for none.
     * @param seed       the hash seed.
     * @return the filter: a ddf kind built by {@link #builder}, or a reference design; fed at a steady rate of time
     *         when the spec says {@code per-item-ms}.
     * @throws IllegalArgumentException when the parameters do not make a filter.
     */
    public DuplicateFilter create(final long memoryBits, final long runWindow, final long seed)
    {
        final DuplicateFilter filter = reference != null ?
            reference.create(params, memoryBits, runWindow, seed) : builder(memoryBits, runWindow, seed).create();
        final String perItem = params.get("per-item-ms");
        return perItem == null ? filter : new SteadyTime(filter, value(perItem, memoryBits).longValue());
    }

    /**
     * @param filter a filter made by {@link #create}.
     * @return its parameters as the engine reports them, or a reference design's description.
     */
    public static Map<String, String> describe(final DuplicateFilter filter)
    {
        final DuplicateFilter inner = filter instanceof SteadyTime steady ? steady.filter() : filter;
        return inner instanceof ReferenceFilter reference ? reference.description() : inner.parameters().toMap();
    }

    /**
     * @param filter a filter made by {@link #create}.
     * @return the bits it holds its state in: a reference design's arrays, a ddf filter's table (its table bytes × 8).
     */
    public static long stateBits(final DuplicateFilter filter)
    {
        final DuplicateFilter inner = filter instanceof SteadyTime steady ? steady.filter() : filter;
        return inner instanceof ReferenceFilter reference ? reference.memoryBits() :
            inner.parameters().tableBytes() * 8;
    }

    /**
     * @param memoryBits the run's memory.
     * @param runWindow  the run's window, 0 for none.
     * @return the window the filter is judged against (and built with, if it takes one): its own if given, else
     *         the run's; 0 for none.
     */
    public long window(final long memoryBits, final long runWindow)
    {
        if (params.containsKey("window"))
        {
            return (long)value(params.get("window"), memoryBits).doubleValue();
        }
        return runWindow;
    }

    /**
     * @param memoryBits the run's memory.
     * @param runWindow  the run's window, 0 for none.
     * @param seed       the hash seed.
     * @return a builder for this filter.
     */
    public FilterBuilder builder(final long memoryBits, final long runWindow, final long seed)
    {
        if (reference != null)
        {
            throw new IllegalArgumentException(reference.cliName() + " is a bench reference design, not a ddf kind");
        }
        final FilterBuilder builder = Filters.builder(kind).seed(seed);
        if (takesMemory() && !params.containsKey("memory-bits") && !params.containsKey("rows"))
        {
            builder.memoryBits(memoryBits);
        }
        final long window = window(memoryBits, runWindow);
        if (takesWindow() && !params.containsKey("window") && window > 0)
        {
            builder.window(window);
        }
        for (final Map.Entry<String, String> e : params.entrySet())
        {
            if (HARNESS_PARAMS.contains(e.getKey()))
            {
                continue;
            }
            final Number v = value(e.getValue(), memoryBits);
            if (v instanceof Long l)
            {
                builder.param(e.getKey(), l.longValue());
            }
            else
            {
                builder.param(e.getKey(), v.doubleValue());
            }
        }
        return builder;
    }

    /**
     * @param factor a scale factor.
     * @return this spec with an explicit integer window multiplied by factor (at least 2).
     */
    public FilterSpec scaled(final double factor)
    {
        final String window = params.get("window");
        if (window == null || window.endsWith("*M") || factor == 1.0)
        {
            return this;
        }
        final Map<String, String> copy = new LinkedHashMap<>(params);
        copy.put("window", Long.toString(Math.max(2, Math.round(value(window, 0).doubleValue() * factor))));
        return new FilterSpec(label, kind, copy, reference);
    }

    /** @return the spec as written back, without its label. */
    public String text()
    {
        final StringBuilder text = new StringBuilder(reference != null ? reference.cliName() : kind.cliName());
        String sep = ":";
        for (final Map.Entry<String, String> e : params.entrySet())
        {
            text.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = ",";
        }
        return text.toString();
    }

    /**
     * @param text       {@code 12}, {@code 0.02} or {@code 0.2*M}.
     * @param memoryBits M.
     * @return a Long for an integer, a Double for a real, a Long for {@code X*M}.
     */
    static Number value(final String text, final long memoryBits)
    {
        try
        {
            if (text.endsWith("*M"))
            {
                return Math.round(Double.parseDouble(text.substring(0, text.length() - 2)) * memoryBits);
            }
            if (text.matches("-?\\d+"))
            {
                return Long.parseLong(text);
            }
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "not a number: '%s'", text), e);
        }
    }
}
