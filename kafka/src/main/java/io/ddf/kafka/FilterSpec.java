package io.ddf.kafka;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.UnknownParameterException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What filter a {@link DdfStore} holds: a kind and its parameters, named as on ddf's command line
 * ({@code memory-bits}, {@code buckets}, {@code window}, ...). Immutable; every task's store builds its own file
 * from it.
 *
 * <p>A window of time ({@link #window(Duration)}: a fifo-bloom that remembers each element for the window after it was
 * first added) runs on event time in a store: the time of each element is its record's timestamp, and the filter's
 * time is the latest of them (Kafka Streams' stream time); a spec that asks for the wall clock
 * ({@code time-source 0}) is refused, because a changelog replayed on another instance, later, must give the same
 * filter.
 *
 * <p>The hash seed must be the same in every instance of the application and across restarts, or a changelog
 * restored into a fresh file would describe elements hashed differently. Without {@link #seed(long)} it is derived
 * from the store's name ({@link #seedFor}), so it is stable without configuration. Keyed hashing is not offered:
 * its secret key is drawn when a file is created and would have to travel through the changelog topic to let
 * another instance restore the filter.
 */
public final class FilterSpec
{
    /** The parameter of a window of time, in milliseconds ({@code --window 24h} on the command line). */
    static final String WINDOW_MILLIS = "window-ms";
    /** Where a window of time reads its time: 0 the wall clock, 1 event time (the only one a store takes). */
    static final String TIME_SOURCE = "time-source";

    private final FilterKind kind;
    private final Map<String, Number> params;
    private final Long seed;

    private FilterSpec(final FilterKind kind, final Map<String, Number> params, final Long seed)
    {
        this.kind = kind;
        this.params = Collections.unmodifiableMap(params);
        this.seed = seed;
    }

    /**
     * @param kindName a kind's command-line name ({@code qht}, {@code cuckoo}, {@code sbf}, ...), any case.
     * @return a spec of that kind with its defaults.
     * @throws IllegalArgumentException naming the valid kinds.
     */
    public static FilterSpec of(final String kindName)
    {
        return of(FilterKind.fromName(Objects.requireNonNull(kindName, "kind")));
    }

    /**
     * @param kind the kind.
     * @return a spec of that kind with its defaults.
     */
    public static FilterSpec of(final FilterKind kind)
    {
        if (kind == null || kind == FilterKind.QUEUE)
        {
            throw new IllegalArgumentException("give the kind to build; the queuing construction is chosen with " +
                "the window and subfilters parameters");
        }
        return new FilterSpec(kind, new LinkedHashMap<>(), null);
    }

    /**
     * @param name  a parameter name, as on the command line without dashes.
     * @param value its value.
     * @return a spec with that parameter set.
     */
    public FilterSpec with(final String name, final long value)
    {
        return withParam(name, value);
    }

    /**
     * @param name  a parameter name, as on the command line without dashes.
     * @param value its value.
     * @return a spec with that parameter set.
     */
    public FilterSpec with(final String name, final double value)
    {
        return withParam(name, value);
    }

    /**
     * @param params parameters by name; each value a {@link Long}/{@link Integer} or a {@link Double}.
     * @return a spec with those parameters set.
     */
    public FilterSpec with(final Map<String, ? extends Number> params)
    {
        FilterSpec spec = this;
        for (final Map.Entry<String, ? extends Number> e : params.entrySet())
        {
            spec = spec.withParam(e.getKey(), e.getValue());
        }
        return spec;
    }

    private FilterSpec withParam(final String name, final Number value)
    {
        final Map<String, Number> copy = new LinkedHashMap<>(params);
        copy.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new FilterSpec(kind, copy, seed);
    }

    /**
     * A window of time: with the kind {@code fifo-bloom}, each element is remembered for {@code window} after it was
     * first added, as long as at most {@code capacity} new elements come within a window (per task), and forgotten by
     * {@code window + window / slices}; on event time (the records' timestamps). Sets {@code window-ms}.
     *
     * @param window a positive whole number of milliseconds.
     * @return a spec with that window.
     * @throws IllegalArgumentException when the window is not a positive whole number of milliseconds.
     */
    public FilterSpec window(final Duration window)
    {
        if (window.isNegative() || window.isZero() || window.toNanos() % 1_000_000 != 0)
        {
            throw new IllegalArgumentException("a window of time is a positive whole number of milliseconds, got " +
                window);
        }
        return withParam(WINDOW_MILLIS, window.toMillis());
    }

    /** @return whether the spec has a window of time ({@link #window(Duration)}). */
    public boolean hasTimeWindow()
    {
        return params.containsKey(WINDOW_MILLIS);
    }

    /**
     * @param seed the hash seed every instance uses.
     * @return a spec with that seed.
     */
    public FilterSpec seed(final long seed)
    {
        return new FilterSpec(kind, new LinkedHashMap<>(params), seed);
    }

    /** @return the kind. */
    public FilterKind kind()
    {
        return kind;
    }

    /** @return the parameters given, by name. */
    public Map<String, Number> params()
    {
        return params;
    }

    /**
     * @param storeName the store's name.
     * @return the seed this spec gives, or one derived from the store's name (FNV-1a of its UTF-8 bytes).
     */
    public long seedFor(final String storeName)
    {
        if (seed != null)
        {
            return seed;
        }
        long h = 0xcbf29ce484222325L;
        for (final byte b : storeName.getBytes(StandardCharsets.UTF_8))
        {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Resolves and checks the parameters, as a store would when it creates its file.
     *
     * @param storeName the store's name, for the message and the seed.
     * @return the parameters every task's filter will have.
     * @throws IllegalArgumentException saying which store, which parameter and why.
     */
    public FilterParameters validate(final String storeName)
    {
        try
        {
            return builder(storeName, null).parameters();
        }
        catch (final IllegalArgumentException e)
        {
            // a parameter the kind does not take is named as an option: specs are written in the options' words
            throw new IllegalArgumentException("ddf store '" + storeName + "' (" + this + "): " +
                (e instanceof UnknownParameterException ? ((UnknownParameterException)e).commandLineMessage() :
                e.getMessage()), e);
        }
    }

    /**
     * @param storeName the store's name, for the seed.
     * @param file      the filter file, or null for an anonymous one.
     * @return a builder of this spec's filter.
     */
    FilterBuilder builder(final String storeName, final Path file)
    {
        if (hasTimeWindow() && params.containsKey(TIME_SOURCE) && params.get(TIME_SOURCE).longValue() != 1)
        {
            throw new IllegalArgumentException("a ddf store's window of time runs on event time (the records' " +
                "timestamps), not time-source " + params.get(TIME_SOURCE) + ": leave time-source out");
        }
        final FilterBuilder builder = Filters.builder(kind);
        if (hasTimeWindow() && !params.containsKey(TIME_SOURCE))
        {
            builder.eventTime();
        }
        params.forEach((name, value) ->
        {
            if (value instanceof Double || value instanceof Float)
            {
                builder.param(name, value.doubleValue());
            }
            else
            {
                builder.param(name, value.longValue());
            }
        });
        return builder.seed(seedFor(storeName)).file(file);
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof FilterSpec && ((FilterSpec)o).kind == kind && ((FilterSpec)o).params.equals(params) &&
            Objects.equals(((FilterSpec)o).seed, seed);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(kind, params, seed);
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(kind.cliName());
        params.forEach((name, value) -> sb.append(" --").append(name).append(' ').append(value));
        if (seed != null)
        {
            sb.append(" --seed ").append(seed);
        }
        return sb.toString();
    }
}
