package io.ddf.bench;

import io.ddf.bench.accuracy.AccuracyRunner;
import io.ddf.bench.accuracy.CsvOutput;
import io.ddf.bench.accuracy.Experiment;
import io.ddf.bench.accuracy.ExperimentResult;
import io.ddf.bench.accuracy.FilterSpec;
import io.ddf.bench.accuracy.MarkdownOutput;
import io.ddf.bench.accuracy.PaperFigures;
import io.ddf.bench.accuracy.PlotOutput;
import io.ddf.bench.accuracy.Presets;
import io.ddf.bench.accuracy.Reproduction;
import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.bench.accuracy.TunerComparison;
import io.ddf.bench.accuracy.WindowMemory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ddf bench accuracy}: FPR, FNR and their sum (unbounded and windowed) of any filters at any memories on a
 * uniform, Zipf or file stream, against exact ground truth, along the stream and averaged over runs; writes a CSV,
 * a markdown table and PNG plots. {@code --preset} runs a reproduction of a paper's table or figure.
 */
@Command(name = "accuracy", mixinStandardHelpOptions = true,
    description = "Error rates of filters against exact ground truth; CSV, markdown table and PNG plots.")
final class AccuracyCommand implements Callable<Integer>
{
    @Option(names = "--preset", description = "A reproduction: ${COMPLETION-CANDIDATES}.",
        completionCandidates = PresetNames.class)
    String preset;

    @Option(names = "--stream", description = "uniform, zipf or file (default uniform).")
    String stream = "uniform";

    @Option(names = "--alphabet", description = "Distinct elements of a uniform or Zipf stream (default 2^20).")
    long alphabet = 1 << 20;

    @Option(names = "--exponent", description = "Zipf exponent (default 1.0).")
    double exponent = 1.0;

    @Option(names = "--file", description = "Records, one per line, for --stream file.")
    Path file;

    @Option(names = "--length", description = "Elements per stream (default 100000; a preset sets its own).")
    Long length;

    @Option(names = "--runs", description = "Runs averaged (default 1; a preset sets its own).")
    Integer runs;

    @Option(names = "--filter", description = "KIND[:NAME=VALUE,...], optionally LABEL@ first; repeat. " +
        "subfilters=L queues it; X*M is X times the memory; per-item-ms=X streams element i at time i*X (event " +
        "time); own-size=1 keeps the run's memory from it. KIND may also be a bench reference design: apbf, " +
        "apbf-time, rotating-bloom, rotating-bloom-time.")
    List<String> filters = new ArrayList<>();

    @Option(names = "--memory-bits", split = ",", description = "Memory sizes in bits (repeat or comma-separate).")
    List<Long> memories = new ArrayList<>();

    @Option(names = "--window", split = ",", description = "Windows w: windowed rates, and the window of kinds " +
        "that take one (repeat or comma-separate).")
    List<Long> windows = new ArrayList<>();

    @Option(names = "--checkpoints", description = "Positions along the stream where rates are recorded " +
        "(default 100).")
    int checkpoints = 100;

    @Option(names = "--seed", description = "Seed all run seeds derive from (default 2026).")
    long seed = 2026;

    @Option(names = "--scale", description = "Multiplies length, alphabet, memories and windows (e.g. 0.01).")
    double scale = 1.0;

    @Option(names = "--out", description = "Output directory (default bench/results/accuracy).")
    Path out = Path.of("bench/results/accuracy");

    @Option(names = "--threads", description = "Passes run at once (default: the processors, ${DEFAULT-VALUE} here). Above 1, " +
        "each filter × memory × window gets its own pass over the same stream; the figures do not change.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--no-progress", description = "No progress bar.")
    boolean noProgress;

    @Option(names = "--no-plots", description = "No PNG plots.")
    boolean noPlots;

    @Override
    public Integer call() throws Exception
    {
        System.setProperty("java.awt.headless", "true");
        final Reproduction reproduction;
        final TunerComparison.Cells tuner;
        final boolean windowMemory = WindowMemory.PRESET.equals(preset);
        try
        {
            // the tuner's picks are computed at the scaled cells, so that prediction and measurement match
            tuner = TunerComparison.PRESET.equals(preset) ? TunerComparison.cells(runs, scale) : null;
            reproduction = tuner != null ? tuner.reproduction() :
                windowMemory ? WindowMemory.reproduction(runs, scale) :
                (preset != null ? Presets.get(preset, runs) : custom()).scaled(scale);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("ddf bench accuracy: " + e.getMessage());
            return 2;
        }
        if (threads < 1)
        {
            System.err.println("ddf bench accuracy: --threads must be at least 1, not " + threads);
            return 2;
        }
        Files.createDirectories(out);
        final AccuracyRunner runner = new AccuracyRunner(System.err, !noProgress, threads);
        final List<ExperimentResult> results = new ArrayList<>();
        for (final Experiment experiment : reproduction.experiments())
        {
            System.err.printf(Locale.ROOT, "%s: %,d elements, %d runs, memories %s, windows %s%n",
                experiment.stream().name(), experiment.stream().length(), experiment.runs(), experiment.memories(),
                experiment.windows());
            results.add(runner.run(experiment));
        }
        final List<String> preface = new ArrayList<>();
        preface.add(reproduction.note());
        preface.add("");
        preface.add("Command: `bin/ddf bench accuracy " + String.join(" ", commandLine()) + "`" +
            (scale != 1.0 ? String.format(Locale.ROOT, " (scale %s: lengths, alphabets, memories and windows " +
                "multiplied by it)", scale) : ""));
        CsvOutput.write(results, out.resolve("accuracy.csv"));
        MarkdownOutput.write(reproduction.title(), preface, results, reproduction.paper(), out.resolve("table.md"));
        System.out.print(MarkdownOutput.render(reproduction.title(), preface, results, reproduction.paper()));
        if (windowMemory)
        {
            // its own plot (bits per item against FPR) instead of one error-against-length plot per memory
            for (final Path file : WindowMemory.write(results, out,
                "bin/ddf bench accuracy " + String.join(" ", commandLine())))
            {
                System.err.println("wrote " + file);
            }
        }
        else if (!noPlots)
        {
            for (final Path png : PlotOutput.write(results, out))
            {
                System.err.println("wrote " + png);
            }
        }
        if (tuner != null)
        {
            TunerComparison.write(tuner, results, out, "bin/ddf bench accuracy " + String.join(" ", commandLine()));
            System.err.println("wrote " + out.resolve("comparison.md") + " and " + out.resolve("comparison.png"));
        }
        System.err.println("wrote " + out.resolve("accuracy.csv") + " and " + out.resolve("table.md"));
        return 0;
    }

    private Reproduction custom()
    {
        if (filters.isEmpty())
        {
            throw new IllegalArgumentException("give --preset or at least one --filter");
        }
        final long n = length == null ? 100_000 : length;
        final StreamSpec spec = switch (stream.toLowerCase(Locale.ROOT))
        {
            case "uniform" -> StreamSpec.uniform(alphabet, n);
            case "zipf" -> StreamSpec.zipf(alphabet, exponent, n);
            case "file" ->
            {
                if (file == null)
                {
                    throw new IllegalArgumentException("--stream file needs --file");
                }
                yield StreamSpec.file(file, n);
            }
            default -> throw new IllegalArgumentException("--stream must be uniform, zipf or file, not " + stream);
        };
        final List<FilterSpec> specs = filters.stream().map(FilterSpec::parse).toList();
        final List<Long> memory = memories.isEmpty() ? List.of(1L << 20) : memories;
        return new Reproduction("Accuracy: " + spec.name(), "", List.of(new Experiment(spec, specs, memory,
            windows, runs == null ? 1 : runs, checkpoints, seed)), PaperFigures.NONE);
    }

    /** The options as given, for the record in the markdown. */
    private List<String> commandLine()
    {
        final List<String> args = new ArrayList<>();
        if (preset != null)
        {
            args.add("--preset " + preset);
            if (runs != null)
            {
                args.add("--runs " + runs);
            }
        }
        else
        {
            args.add("--stream " + stream);
            args.add(file != null ? "--file " + file : "--alphabet " + alphabet);
            if (stream.equalsIgnoreCase("zipf"))
            {
                args.add("--exponent " + exponent);
            }
            args.add("--length " + (length == null ? 100_000 : length));
            args.add("--runs " + (runs == null ? 1 : runs));
            filters.forEach(f -> args.add("--filter " + f));
            memories.forEach(m -> args.add("--memory-bits " + m));
            windows.forEach(w -> args.add("--window " + w));
            args.add("--seed " + seed);
        }
        if (scale != 1.0)
        {
            args.add("--scale " + scale);
        }
        args.add("--out " + out);
        return args;
    }

    /** The preset names, for picocli's completion candidates. */
    static final class PresetNames extends ArrayList<String>
    {
        private static final long serialVersionUID = 1L;

        PresetNames()
        {
            super(Presets.names());
        }
    }
}
