package io.ddf.ingest;

import io.ddf.engine.FilterKind;
import io.ddf.engine.tune.Candidate;
import io.ddf.engine.tune.Objective;
import io.ddf.engine.tune.Tuner;
import io.ddf.engine.tune.Tuning;
import io.ddf.engine.tune.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ddf tune}: for a memory budget and a stream, every filter kind with an error model is weighed over its
 * shapes ({@link Tuner}); prints the overall pick with its predicted rates and the command line, builder call and
 * {@code BF.RESERVE} line that build it, the best shape per kind, the trade-off frontier and the kinds it cannot
 * model. {@code --json} prints the same as one JSON object, {@code --plot FILE} draws the frontier as SVG.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Recommend a filter kind and its parameters for a memory budget and a stream, with predicted " +
        "error rates, from the papers' error models.")
/**
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class TuneCommand implements Callable<Integer>
{
    /** Rows of the trade-off table in text output (the JSON and the plot have them all). */
    private static final int FRONTIER_ROWS = 25;

    @Spec
    private CommandSpec spec;

    @Option(names = "--memory-bits", required = true, paramLabel = "M", description = "Memory budget in bits " +
        "(1 to 2^43).")
    private long memoryBits;

    @Option(names = "--stream-length", paramLabel = "N",
        description = "Elements in the stream (default: endless, steady-state rates).")
    private long streamLength;

    @Option(names = "--alphabet", paramLabel = "U",
        description = "Distinct elements the stream draws from (default: unbounded, no chance repeats).")
    private Double alphabet;

    @Option(names = "--zipf", paramLabel = "S", description = "Zipf exponent of the draws (default 0: uniform). " +
        "Unbounded streams only; over an unbounded alphabet it must exceed 1.")
    private double zipf;

    @Option(names = "--window", paramLabel = "W", description = "Sliding window w: windowed rates, windowed " +
        "filters (default: none).")
    private long window;

    @Option(names = "--fpr-weight", paramLabel = "A", defaultValue = "1",
        description = "Cost of the false positive rate (default 1).")
    private double fprWeight;

    @Option(names = "--fnr-weight", paramLabel = "B", defaultValue = "1",
        description = "Cost of the false negative rate (default 1). The pick minimises A·FPR + B·FNR.")
    private double fnrWeight;

    @Option(names = "--target-fpr", paramLabel = "X", description = "Largest acceptable false positive rate.")
    private Double targetFpr;

    @Option(names = "--target-fnr", paramLabel = "Y", description = "Largest acceptable false negative rate.")
    private Double targetFnr;

    @Option(names = "--changelog", paramLabel = "BYTES", arity = "0..1", fallbackValue = "16",
        description = "The filter will be a Kafka Streams store (ddf kafka-dedup): admit only shapes whose changelog " +
            "costs at most BYTES (default 16, an exact store's record) and one record per new element; among equal " +
            "costs, prefer the faster restore. Shows each shape's changelog.")
    private Double changelog;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    private boolean json;

    @Option(names = "--plot", paramLabel = "FILE", description = "Write the trade-off (FNR against FPR) as SVG.")
    private Path plot;

    /** @return 0, or 3 when no filter meets the caps (the best is still printed); bad input is status 2. */
    @Override
    public Integer call()
    {
        final Workload workload = new Workload(streamLength, alphabet == null ? Double.POSITIVE_INFINITY : alphabet,
            zipf, window);
        if (!workload.windowed() && !workload.finite() && alphabet == null && targetFpr == null && targetFnr == null)
        {
            throw new IllegalArgumentException("give --stream-length, --alphabet, --window or a target: on an " +
                "endless stream over an unbounded alphabet every filter tends to FPR + FNR = 1 (Geraud et al. 2019 " +
                "Claim 4.1)");
        }
        final Objective objective = new Objective(fprWeight, fnrWeight, targetFpr == null ? Double.NaN : targetFpr,
            targetFnr == null ? Double.NaN : targetFnr, changelog == null ? Double.NaN : changelog);
        final Tuning tuning = Tuner.tune(memoryBits, workload, objective);
        if (plot != null)
        {
            try
            {
                TradeOffPlot.write(plot, tuning);
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException("cannot write " + plot + ": " + e.getMessage(), e);
            }
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.print(json ? TuneJson.of(tuning, reserve(tuning.pick())) + "\n" : text(tuning));
        out.flush();
        return tuning.admitted() ? 0 : 3;
    }

    /**
     * The BF.RESERVE line that builds the pick (capacity and error rate: what its model says it keeps), or why none.
     */
    private static String reserve(final Candidate pick)
    {
        return pick.reserveCommand("KEY").orElse("none: " + pick.noReserveReason());
    }

    private String text(final Tuning t)
    {
        final StringBuilder s = new StringBuilder();
        final Candidate pick = t.pick();
        line(s, "filter", pick.family() + (t.admitted() ? "" : " (no filter meets the caps: the best shown)"));
        line(s, "shape", pick.label());
        line(s, "predicted-fpr", String.format(Locale.ROOT, "%.6g", pick.fpr()));
        line(s, "predicted-fnr", String.format(Locale.ROOT, "%.6g", pick.fnr()));
        line(s, "model", pick.model());
        line(s, "validity", pick.validity().isEmpty() ? "within the model's checked range" : pick.validity());
        line(s, "command", pick.pipeCommand());
        line(s, "builder", pick.builderCall());
        line(s, "reserve", reserve(pick));
        if (t.objective().changelog())
        {
            line(s, "changelog", t.changelog(pick).describe());
        }
        line(s, "stream", t.workload().describe());
        line(s, "objective", t.objective().describe());
        line(s, "evaluated", t.evaluated() + " shapes");
        s.append("\nBest shape per kind (FPR and FNR in %, cost = the objective):\n\n");
        final boolean changelogs = t.objective().changelog();
        s.append("| kind | shape | FPR % | FNR % | cost | meets caps |").append(changelogs ?
            " changelog bytes per new element | restore reads |" : "").append(" model validity |\n| --- | --- | --- | " +
            "--- | --- | --- |").append(changelogs ? " --- | --- |" : "").append(" --- |\n");
        for (final Candidate c : t.bestPerKind())
        {
            s.append(String.format(Locale.ROOT, "| %s | %s | %.4g | %.4g | %.4g | %s |", c.family(),
                c.label(), 100 * c.fpr(), 100 * c.fnr(), t.objective().cost(c.fpr(), c.fnr()),
                t.admits(c) ? "yes" : "no"));
            if (changelogs)
            {
                final var cost = t.changelog(c);
                s.append(String.format(Locale.ROOT, " %.3g (%s) | %.3g MB |", cost.bytesPerNewElement(),
                    cost.hashes() ? "hashes" : "words", cost.restoreBytes() / 1e6));
            }
            s.append(' ').append(c.validity().isEmpty() ? "-" : c.validity()).append(" |\n");
        }
        s.append("\nTrade-off: shapes no other beats on both rates, by FPR").append(t.frontier().size() >
            FRONTIER_ROWS ? " (" + FRONTIER_ROWS + " of " + t.frontier().size() + ", evenly spaced; --json has all)" :
            "").append(":\n\n| FPR % | FNR % | FPR + FNR | shape |\n| --- | --- | --- | --- |\n");
        final int n = t.frontier().size();
        final int rows = Math.min(n, FRONTIER_ROWS);
        for (int i = 0; i < rows; i++)
        {
            final Candidate c = t.frontier().get(rows == 1 ? 0 : (int)Math.round((double)i * (n - 1) / (rows - 1)));
            s.append(String.format(Locale.ROOT, "| %.4g | %.4g | %.4g | %s |%n", 100 * c.fpr(), 100 * c.fnr(),
                c.fpr() + c.fnr(), c.label()));
        }
        s.append("\nNot modelled (not weighed):\n\n");
        for (final Map.Entry<FilterKind, String> e : t.notModelled().entrySet())
        {
            s.append("- ").append(e.getKey().cliName()).append(": ").append(e.getValue()).append('\n');
        }
        return s.toString();
    }

    private static void line(final StringBuilder s, final String key, final String value)
    {
        s.append(key).append(": ").append(value).append('\n');
    }
}
