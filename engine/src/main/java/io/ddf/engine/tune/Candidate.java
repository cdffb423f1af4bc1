package io.ddf.engine.tune;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.util.Locale;
import java.util.Map;

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
     * @param key       the key name.
     * @param errorRate the error rate argument (RedisBloom's; ddf keeps it in BF.INFO).
     * @param capacity  the capacity argument.
     * @return the daemon's {@code BF.RESERVE} line that builds it.
     */
    public String reserveCommand(final String key, final double errorRate, final long capacity)
    {
        final StringBuilder s = new StringBuilder("BF.RESERVE ").append(key).append(' ')
            .append(format(Math.min(Math.max(errorRate, 1e-9), 0.999999))).append(' ').append(Math.max(1, capacity))
            .append(" KIND ").append(kind.cliName());
        parameters.forEach((name, value) -> s.append(' ').append(name).append(' ').append(format(value)));
        return s.toString();
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
