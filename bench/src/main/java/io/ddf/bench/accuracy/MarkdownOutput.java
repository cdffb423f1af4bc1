package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.ConfigResult.Metric;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the end-of-stream rates as markdown tables in the layout of seed 000 Tables 2 and 4: rows are streams and
 * memories (and windows), columns are filters; one table of error rates ×100 and one of FPR % / FNR %, and the same
 * against the window when there is one. A paper's figures, when given, follow ours in parentheses.
 */
public final class MarkdownOutput
{
    private MarkdownOutput()
    {
    }

    /**
     * @param title   heading.
     * @param preface lines under the heading (command, scale, notes).
     * @param results the experiments' results.
     * @param paper   the paper's figures, or {@link PaperFigures#NONE}.
     * @param file    where to write.
     * @throws IOException when the file cannot be written.
     */
    public static void write(final String title, final List<String> preface, final List<ExperimentResult> results,
        final PaperFigures paper, final Path file) throws IOException
    {
        Files.writeString(file, render(title, preface, results, paper), StandardCharsets.UTF_8);
    }

    /**
     * @param title   heading.
     * @param preface lines under the heading.
     * @param results the experiments' results.
     * @param paper   the paper's figures.
     * @return the markdown.
     */
    public static String render(final String title, final List<String> preface, final List<ExperimentResult> results,
        final PaperFigures paper)
    {
        final StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        for (final String line : preface)
        {
            md.append(line).append('\n');
        }
        final String against = paper.source().isEmpty() ? "" : " (in parentheses: " + paper.source() + ")";
        md.append("\n## Error rate ×100 (FPR + FNR) at the end of the stream").append(against).append("\n\n");
        table(md, results, paper, false, false);
        md.append("\n## FPR % / FNR % at the end of the stream").append(against).append("\n\n");
        table(md, results, paper, true, false);
        if (paper.alongStream())
        {
            alongStream(md, results);
        }
        if (results.stream().flatMap(r -> r.configs().stream()).anyMatch(c -> c.window() > 0))
        {
            md.append("\n## Windowed error rate ×100 (FPR^w + FNR^w)\n\n");
            table(md, results, PaperFigures.NONE, false, true);
            md.append("\n## Windowed FPR^w % / FNR^w %\n\n");
            table(md, results, PaperFigures.NONE, true, true);
        }
        md.append("\n## Filters\n\n| label | spec | resolved parameters (first memory) |\n| --- | --- | --- |\n");
        final Map<String, ConfigResult> first = new LinkedHashMap<>();
        for (final ExperimentResult result : results)
        {
            for (final ConfigResult c : result.configs())
            {
                first.putIfAbsent(c.spec().label(), c);
            }
        }
        for (final ConfigResult c : first.values())
        {
            md.append("| ").append(c.spec().label()).append(" | `").append(c.spec().text()).append("` | ")
                .append(c.failure() != null ? "not built: " + c.failure() : c.parameters()).append(" |\n");
        }
        md.append("\n## Runs\n\n");
        for (final ExperimentResult result : results)
        {
            final Experiment e = result.experiment();
            md.append(String.format(Locale.ROOT, "- %s: %,d elements, %d run(s), seed %d, %.1f s; per run (stream seed, " +
                "filter seed):", e.stream().name(), e.stream().length(), e.runs(), e.seed(), result.seconds()));
            for (final long[] seeds : result.runSeeds())
            {
                md.append(" (").append(seeds[0]).append(", ").append(seeds[1]).append(')');
            }
            md.append('\n');
            for (final ConfigResult c : result.configs())
            {
                if (c.failure() != null)
                {
                    md.append("  - ").append(c.spec().label()).append(" at ").append(c.memoryBits())
                        .append(" bits not built: ").append(c.failure()).append('\n');
                }
            }
        }
        return md.toString();
    }

    private static void table(final StringBuilder md, final List<ExperimentResult> results, final PaperFigures paper,
        final boolean split, final boolean windowed)
    {
        final List<String> labels = labels(results);
        final boolean windows = results.stream().anyMatch(r -> r.experiment().windows().size() > 1 ||
            r.experiment().windows().get(0) > 0);
        md.append("| Stream (duplicate %) | Memory (bits) |").append(windows ? " Window |" : "");
        for (final String label : labels)
        {
            md.append(' ').append(label).append(" |");
        }
        md.append("\n| --- | --- |").append(windows ? " --- |" : "").append(" --- |".repeat(labels.size()))
            .append('\n');
        // Experiments on the same stream (one per window, seed 001 Fig. 7) name it once.
        String previous = null;
        for (int e = 0; e < results.size(); e++)
        {
            final ExperimentResult result = results.get(e);
            final Experiment experiment = result.experiment();
            final String stream = String.format(Locale.ROOT, "%s (%.2f %%)", experiment.stream().name(),
                100 * result.duplicates());
            boolean firstRow = !stream.equals(previous);
            previous = stream;
            for (int m = 0; m < experiment.memories().size(); m++)
            {
                final long memory = experiment.memories().get(m);
                for (final long window : experiment.windows())
                {
                    md.append("| ").append(firstRow ? stream : "").append(" | ")
                        .append(memoryText(memory)).append(" |").append(windows ? " " + window + " |" : "");
                    firstRow = false;
                    for (final String label : labels)
                    {
                        md.append(' ').append(cell(find(result, label, memory, window), paper.get(e, m, label), split,
                            windowed)).append(" |");
                    }
                    md.append('\n');
                }
            }
        }
    }

    private static String cell(final ConfigResult c, final double[] paper, final boolean split,
        final boolean windowed)
    {
        if (c == null)
        {
            return "";
        }
        if (c.failure() != null)
        {
            // A filter the engine refuses still shows what the paper claimed for it.
            return "n/a" + (paper == null ? "" : split ? paperPair(paper) : paperError(paper));
        }
        final Metric fpr = windowed ? Metric.FPR_W : Metric.FPR;
        final Metric fnr = windowed ? Metric.FNR_W : Metric.FNR;
        final Metric error = windowed ? Metric.ERROR_W : Metric.ERROR;
        if (split)
        {
            return pct(c.end(fpr)) + "/" + pct(c.end(fnr)) + (paper == null ? "" : paperPair(paper));
        }
        return pct(c.end(error)) + (paper == null ? "" : paperError(paper));
    }

    private static String paperPair(final double[] paper)
    {
        return Double.isNaN(paper[0]) ? "" : " (" + number(paper[0]) + "/" + number(paper[1]) + ")";
    }

    private static String paperError(final double[] paper)
    {
        return Double.isNaN(paper[2]) ? "" : " (" + number(paper[2]) + ")";
    }

    private static String pct(final double v)
    {
        return Double.isNaN(v) ? "–" : number(100 * v);
    }

    /** Two decimals, four below 0.1 so that the small rates of seeds 003 and 004 do not all read 0.00. */
    private static String number(final double v)
    {
        return String.format(Locale.ROOT, v != 0 && Math.abs(v) < 0.1 ? "%.4f" : "%.2f", v);
    }

    /** Bits, and megabytes (2^23 bits) too for a whole number of kilobytes from 1 Mbit up (seeds 003, 004). */
    static String memoryText(final long bits)
    {
        if (bits < 1 << 20 || bits % (1 << 13) != 0)
        {
            return Long.toString(bits);
        }
        return bits + " (" + BigDecimal.valueOf(bits).divide(BigDecimal.valueOf(1L << 23)).stripTrailingZeros()
            .toPlainString() + " MB)";
    }

    /**
     * Error ×100 of every filter after 1, 2, 5 × 10^k elements (the nearest checkpoint at or below) and at the end,
     * per unbounded experiment and memory, with the lower bound of seed 001 Theorem 4 where it applies.
     */
    private static void alongStream(final StringBuilder md, final List<ExperimentResult> results)
    {
        final List<String> labels = labels(results);
        for (final ExperimentResult result : results)
        {
            final Experiment e = result.experiment();
            if (e.windows().get(0) > 0)
            {
                continue;
            }
            for (final long memory : e.memories())
            {
                final List<ConfigResult> configs = new ArrayList<>();
                for (final String label : labels)
                {
                    configs.add(find(result, label, memory, 0));
                }
                final long[] positions = configs.stream().filter(c -> c != null && c.failure() == null)
                    .map(ConfigResult::positions).findFirst().orElse(null);
                if (positions == null)
                {
                    continue;
                }
                md.append(String.format(Locale.ROOT, "\n## Error rate ×100 along the stream: %s, M = %s\n\n",
                    e.stream().name(), memoryText(memory)));
                md.append("| elements |");
                labels.forEach(l -> md.append(' ').append(l).append(" |"));
                md.append(' ').append(LowerBoundLine.LABEL).append(" |\n| --- |")
                    .append(" --- |".repeat(labels.size() + 1)).append('\n');
                for (final int j : milestones(positions))
                {
                    md.append(String.format(Locale.ROOT, "| %,d |", positions[j]));
                    for (final ConfigResult c : configs)
                    {
                        md.append(' ').append(c == null ? "" : c.failure() != null ? "n/a" :
                            pct(c.mean()[j][Metric.ERROR.ordinal()])).append(" |");
                    }
                    md.append(' ').append(pct(LowerBoundLine.at(e.stream(), memory, positions[j]))).append(" |\n");
                }
            }
        }
    }

    /** @return indices of the last checkpoint at or below each 1, 2, 5 × 10^k (within a factor 1.5), and the end. */
    static List<Integer> milestones(final long[] positions)
    {
        final List<Integer> picked = new ArrayList<>();
        final long last = positions[positions.length - 1];
        for (long decade = 1; decade <= last && decade > 0; decade *= 10)
        {
            for (final long step : new long[] {1, 2, 5})
            {
                final long target = decade * step;
                int j = -1;
                while (j + 1 < positions.length && positions[j + 1] <= target)
                {
                    j++;
                }
                if (j >= 0 && positions[j] * 3 >= target * 2 && !picked.contains(j))
                {
                    picked.add(j);
                }
            }
        }
        if (!picked.contains(positions.length - 1))
        {
            picked.add(positions.length - 1);
        }
        return picked;
    }

    /**
     * @return the configuration of that label at that memory (or taking no memory) and window, or null.
     */
    static ConfigResult find(final ExperimentResult result, final String label, final long memory, final long window)
    {
        for (final ConfigResult c : result.configs())
        {
            if (c.spec().label().equals(label) && (c.memoryBits() == memory || !c.spec().takesMemory()) &&
                (window == 0 || c.window() == window || c.spec().params().containsKey("window")))
            {
                return c;
            }
        }
        return null;
    }

    /** @return every filter label, in first-seen order. */
    static List<String> labels(final List<ExperimentResult> results)
    {
        final List<String> labels = new ArrayList<>();
        for (final ExperimentResult result : results)
        {
            for (final FilterSpec spec : result.experiment().filters())
            {
                if (!labels.contains(spec.label()))
                {
                    labels.add(spec.label());
                }
            }
        }
        return labels;
    }
}
