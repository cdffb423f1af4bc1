package io.ddf.bench.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a JMH JSON result ({@code -rf json -rff FILE}) of this suite and prints a markdown table: ns/op (± JMH's
 * 99.9% error) per implementation, kind, memory, key size and threads, with each row's ratio to Guava's
 * BloomFilter at the same memory, key size and threads from the same file ("—" when that Guava run is absent).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.ddf.bench.jmh.RatioTable RESULT.json}.
 */
public final class RatioTable
{
    private static final String GUAVA = "GuavaBloomBenchmark";

    private RatioTable()
    {
    }

    /** One benchmark result. */
    record Row(String implementation, String kind, long memoryBits, int keyBytes, int threads, double score,
               double error)
    {
        String context()
        {
            return memoryBits + "/" + keyBytes + "/" + threads;
        }
    }

    /**
     * @param args the JSON file.
     * @throws IOException when it cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            System.err.println("usage: RatioTable RESULT.json");
            System.exit(2);
        }
        System.out.print(table(rows(Files.readString(Path.of(args[0])))));
    }

    /**
     * @param json JMH's JSON result.
     * @return its results of AverageTime mode.
     */
    @SuppressWarnings("unchecked")
    static List<Row> rows(final String json)
    {
        final List<Row> rows = new ArrayList<>();
        for (final Object item : (List<Object>)Json.parse(json))
        {
            final Map<String, Object> result = (Map<String, Object>)item;
            if (!"avgt".equals(result.get("mode")))
            {
                continue;
            }
            final String benchmark = (String)result.get("benchmark");
            final String[] parts = benchmark.split("\\.");
            final String implementation = parts[parts.length - 2] + "." + parts[parts.length - 1];
            final Map<String, Object> params = result.get("params") == null ?
                Map.of() : (Map<String, Object>)result.get("params");
            final Map<String, Object> metric = (Map<String, Object>)result.get("primaryMetric");
            rows.add(new Row(implementation, (String)params.getOrDefault("kind", "—"),
                Long.parseLong((String)params.getOrDefault("memoryBits", "0")),
                Integer.parseInt((String)params.getOrDefault("keyBytes", "0")),
                ((Number)result.get("threads")).intValue(), number(metric.get("score")),
                number(metric.get("scoreError"))));
        }
        return rows;
    }

    /**
     * @param rows results.
     * @return the markdown table, sorted by memory, key size, threads, then implementation and kind.
     */
    static String table(final List<Row> rows)
    {
        final Map<String, Double> guava = new HashMap<>();
        for (final Row row : rows)
        {
            if (row.implementation().startsWith(GUAVA + "."))
            {
                guava.put(row.context(), row.score());
            }
        }
        final List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingLong(Row::memoryBits).thenComparingInt(Row::keyBytes)
            .thenComparingInt(Row::threads).thenComparing(Row::implementation).thenComparing(Row::kind));
        final StringBuilder out = new StringBuilder();
        out.append("| benchmark | kind | memory bits | key bytes | threads | ns/op | ± (99.9%) | ratio to Guava |\n");
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final Row row : sorted)
        {
            final Double reference = guava.get(row.context());
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %.1f | %s | %s |%n",
                row.implementation(), row.kind(), row.memoryBits() == 0 ? "—" : Long.toString(row.memoryBits()),
                row.keyBytes() == 0 ? "—" : Integer.toString(row.keyBytes()), row.threads(), row.score(),
                Double.isNaN(row.error()) ? "—" : String.format(Locale.ROOT, "%.1f", row.error()),
                reference == null ? "—" : String.format(Locale.ROOT, "%.2f", row.score() / reference)));
        }
        return out.toString();
    }

    private static double number(final Object value)
    {
        if (value instanceof Number)
        {
            return ((Number)value).doubleValue();
        }
        // JMH writes "NaN" (a string) for the error of a single iteration.
        return value == null ? Double.NaN : Double.parseDouble(value.toString());
    }
}
