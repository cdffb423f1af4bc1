package io.ddf.engine.tune;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One filter the tuner can recommend, with the rates its model predicts.
 *
 * @param kind       the kind ({@link FilterKind#QHT} with {@code window} and {@code subfilters} for a queue).
 * @param parameters the builder's parameters by command-line name, in order (Long or Double values).
 * @param fpr        predicted false positive rate.
 * @param fnr        predicted false negative rate.
 * @param model      which model predicted it, one line.
 * @param validity   where that model is known to be off, or the empty string.
 */
public record Candidate(FilterKind kind, Map<String, Number> parameters, double fpr, double fnr, String model,
    String validity)
{
    /** @return a label: the kind (queued when it has subfilters) and its shape. */
    public String label()
    {
        final StringBuilder s = new StringBuilder(queued() ? "queued " + kind.cliName() : kind.cliName());
        String sep = " ";
        for (final Map.Entry<String, Number> e : parameters.entrySet())
        {
            if (!e.getKey().equals("memory-bits"))
            {
                s.append(sep).append(e.getKey()).append('=').append(format(e.getValue()));
                sep = ",";
            }
        }
        return s.toString();
    }

    /** @return true for the queuing construction. */
    public boolean queued()
    {
        return parameters.containsKey("subfilters");
    }

    /** @return the kind's name as the tables group it ("queued qht" for a queue). */
    public String family()
    {
        return queued() ? "queued " + kind.cliName() : kind.cliName();
    }

    /** @return a builder with exactly these parameters. */
    public FilterBuilder builder()
    {
        final FilterBuilder builder = Filters.builder(kind);
        parameters.forEach((name, value) ->
        {
            if (value instanceof Double d)
            {
                builder.param(name, d.doubleValue());
            }
            else
            {
                builder.param(name, value.longValue());
            }
        });
        return builder;
    }

    /** @return the {@code ddf pipe} command line that builds it. */
    public String pipeCommand()
    {
        final StringBuilder s = new StringBuilder("bin/ddf pipe --filter ").append(kind.cliName());
        parameters.forEach((name, value) -> s.append(" --").append(name).append(' ').append(format(value)));
        return s.toString();
    }

    /** @return the embedder's Java builder call that builds it. */
    public String builderCall()
    {
        final StringBuilder s = new StringBuilder("Filters.builder(FilterKind.").append(kind.name()).append(')');
        parameters.forEach((name, value) -> s.append(".param(\"").append(name).append("\", ")
            .append(value instanceof Double ? format(value) : format(value) + "L").append(')'));
        return s.append(".create()").toString();
    }

    /**
     * The daemon's {@code BF.RESERVE} line that builds exactly this filter: the capacity and error rate are the
     * promise its model says it keeps ({@link CapacitySizing#promise}), so the daemon's check accepts the shape.
     *
     * @param key the key name.
     * @return the line, or empty when capacity and error rate cannot describe this kind (or it holds no item).
     */
    public Optional<String> reserveCommand(final String key)
    {
        if (queued() || !CapacitySizing.SIZED.contains(kind))
        {
            return Optional.empty();
        }
        return CapacitySizing.promise(builder().parameters(), fpr).map(promise ->
        {
            final StringBuilder s = new StringBuilder("BF.RESERVE ").append(key).append(' ')
                .append(format(promise[1])).append(' ').append((long)promise[0]).append(" KIND ")
                .append(kind.cliName());
            parameters.forEach((name, value) -> s.append(' ').append(name).append(' ').append(format(value)));
            return s.toString();
        });
    }

    /** @return why {@link #reserveCommand} has no line for this filter. */
    public String noReserveReason()
    {
        return queued() || !CapacitySizing.SIZED.contains(kind) ? "BF.RESERVE sizes fifo-bloom, bloom and qht by " +
            "capacity and error rate, not " + family() + ": build it with the command or builder above" :
            "this " + kind.cliName() + " forgets more than " + 100 * CapacitySizing.MAX_FORGOTTEN + " % of even " +
            "one item, or its false positive rate is 1: BF.RESERVE cannot promise a capacity for it";
    }

    static String format(final Number value)
    {
        if (value instanceof Double d)
        {
            final String s = String.format(Locale.ROOT, "%.6g", d);
            return s.contains("e") ? s : s.replaceAll("\\.?0+$", "");
        }
        return Long.toString(value.longValue());
    }
}
