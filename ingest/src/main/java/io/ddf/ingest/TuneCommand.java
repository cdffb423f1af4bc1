package io.ddf.ingest;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ddf tune}: recommends a filter kind and its parameters for a memory budget from the papers' error models
 * (see {@link Tuner}), prints the predicted FPR and FNR and the command lines that build it.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
    description = "Recommend a filter and its parameters for a memory budget, with predicted error rates.")
public final class TuneCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--memory-bits", required = true, paramLabel = "M", description = "Memory budget in bits.")
    private long memoryBits;

    @Option(names = "--window", paramLabel = "W", description = "Sliding window w (default: none, unbounded).")
    private Long window;

    @Option(names = "--stream-length", paramLabel = "N",
        description = "Expected stream length n (unbounded filters: compares candidates on n elements).")
    private Long streamLength;

    @Option(names = "--alphabet", paramLabel = "U",
        description = "Distinct elements the stream draws from, uniformly (default: unbounded).")
    private Long alphabet;

    @Option(names = "--target-fpr", paramLabel = "X", description = "Largest acceptable false positive rate.")
    private Double targetFpr;

    /** @return exit status 0; bad input raises IllegalArgumentException (status 2). */
    @Override
    public Integer call()
    {
        final Tuner.Recommendation r = Tuner.recommend(memoryBits, window, streamLength, alphabet, targetFpr);
        r.builder().parameters(); // what the printed command line will build must be buildable
        final StringBuilder options = new StringBuilder();
        final StringBuilder reserve = new StringBuilder();
        for (final Map.Entry<String, Long> e : r.parameters().entrySet())
        {
            options.append(" --").append(e.getKey()).append(' ').append(e.getValue());
            reserve.append(' ').append(e.getKey()).append(' ').append(e.getValue());
        }
        final long capacity = window != null ? window : streamLength != null ? streamLength : memoryBits;
        final double errorRate = targetFpr != null ? targetFpr : Math.max(r.fpr(), Double.MIN_NORMAL);
        final PrintWriter out = spec.commandLine().getOut();
        out.print(String.format(Locale.ROOT, "filter: %s%s%n", r.kind().cliName(),
            r.parameters().containsKey("subfilters") ? " (queuing construction)" : ""));
        out.print(String.format(Locale.ROOT, "predicted-fpr: %.6g%n", r.fpr()));
        out.print(String.format(Locale.ROOT, "predicted-fnr: %.6g%n", r.fnr()));
        out.print("model: " + r.basis() + "\n");
        out.print("command: bin/ddf pipe --filter " + r.kind().cliName() + options + "\n");
        out.print(String.format(Locale.ROOT, "reserve: BF.RESERVE KEY %s %d KIND %s%s%n",
            Double.toString(Math.min(errorRate, 0.999999)), capacity, r.kind().cliName(), reserve));
        out.flush();
        return 0;
    }
}
