package io.ddf.ingest;

import io.ddf.engine.FilterKind;
import io.ddf.engine.tune.Candidate;
import io.ddf.engine.tune.Tuning;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code ddf tune --json}: the tuning as one JSON object (rates as fractions; NaN caps as null). */
final class TuneJson
{
    private TuneJson()
    {
    }

    static String of(final Tuning t, final String reserve)
    {
        final StringBuilder s = new StringBuilder("{");
        field(s, "memory_bits").append(t.memoryBits()).append(',');
        field(s, "stream").append('{');
        field(s, "length").append(t.workload().length()).append(',');
        field(s, "alphabet").append(number(t.workload().alphabet())).append(',');
        field(s, "zipf").append(number(t.workload().zipf())).append(',');
        field(s, "window").append(t.workload().window()).append("},");
        field(s, "objective").append('{');
        field(s, "fpr_weight").append(number(t.objective().fprWeight())).append(',');
        field(s, "fnr_weight").append(number(t.objective().fnrWeight())).append(',');
        field(s, "target_fpr").append(number(t.objective().targetFpr())).append(',');
        field(s, "target_fnr").append(number(t.objective().targetFnr())).append(',');
        field(s, "changelog_bytes").append(number(t.objective().changelogBytes())).append("},");
        field(s, "meets_caps").append(t.admitted()).append(',');
        field(s, "pick").append(candidate(t.pick())).append(',');
        if (t.objective().changelog())
        {
            final var cost = t.changelog(t.pick());
            field(s, "changelog").append('{');
            field(s, "format").append(string(cost.hashes() ? "hashes" : "words")).append(',');
            field(s, "bytes_per_new_element").append(number(cost.bytesPerNewElement())).append(',');
            field(s, "records_per_new_element").append(number(cost.recordsPerNewElement())).append(',');
            field(s, "restore_bytes").append(number(cost.restoreBytes())).append("},");
        }
        field(s, "reserve").append(string(reserve)).append(',');
        field(s, "best_per_kind");
        list(s, t.bestPerKind());
        s.append(',');
        field(s, "frontier");
        list(s, t.frontier());
        s.append(',');
        field(s, "evaluated").append(t.evaluated()).append(',');
        field(s, "not_modelled").append('{');
        String sep = "";
        for (final Map.Entry<FilterKind, String> e : t.notModelled().entrySet())
        {
            s.append(sep);
            field(s, e.getKey().cliName()).append(string(e.getValue()));
            sep = ",";
        }
        return s.append("}}").toString();
    }

    private static void list(final StringBuilder s, final List<Candidate> candidates)
    {
        s.append('[');
        for (int i = 0; i < candidates.size(); i++)
        {
            s.append(i == 0 ? "" : ",").append(candidate(candidates.get(i)));
        }
        s.append(']');
    }

    private static String candidate(final Candidate c)
    {
        final StringBuilder s = new StringBuilder("{");
        field(s, "kind").append(string(c.kind().cliName())).append(',');
        field(s, "queued").append(c.queued()).append(',');
        field(s, "parameters").append('{');
        String sep = "";
        for (final Map.Entry<String, Number> e : c.parameters().entrySet())
        {
            s.append(sep);
            field(s, e.getKey()).append(e.getValue() instanceof Double d ? number(d) : e.getValue().toString());
            sep = ",";
        }
        s.append("},");
        field(s, "fpr").append(number(c.fpr())).append(',');
        field(s, "fnr").append(number(c.fnr())).append(',');
        field(s, "model").append(string(c.model())).append(',');
        field(s, "validity").append(string(c.validity())).append(',');
        field(s, "command").append(string(c.pipeCommand())).append(',');
        field(s, "builder").append(string(c.builderCall()));
        return s.append('}').toString();
    }

    private static StringBuilder field(final StringBuilder s, final String name)
    {
        return s.append(string(name)).append(':');
    }

    private static String number(final double v)
    {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.9g", v) : "null";
    }

    static String string(final String v)
    {
        final StringBuilder s = new StringBuilder("\"");
        for (final char c : v.toCharArray())
        {
            switch (c)
            {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                default -> s.append(c < 0x20 ? String.format(Locale.ROOT, "\\u%04x", (int)c) : String.valueOf(c));
            }
        }
        return s.append('"').toString();
    }
}
