package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.ElementStream;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs an experiment: per run, one pass over a fresh stream feeding every filter × memory × window at once, with the
 * exact ground truth computed alongside; counts false positives and negatives, unbounded and windowed, and records
 * the cumulative rates at each checkpoint. Rates are averaged over runs.
 *
 * <p>With more than one thread, each configuration makes its own pass over its own copy of the stream (the same
 * seed gives the same elements and the same ground truth), so the figures are identical to a single-threaded run;
 * only the wall time changes.
 */
public final class AccuracyRunner
{
    /** Counters per configuration: unseen, FP, duplicates, FN, then the same against the window. */
    private static final int COUNTERS = 8;
    private static final int METRICS = ConfigResult.Metric.values().length;
    private static final long PROGRESS_STEP = 1 << 16;

    private final PrintStream log;
    private final boolean progress;
    private final int threads;

    /**
     * @param log      where run seeds and skipped filters are reported.
     * @param progress whether to show a progress bar (on stderr).
     */
    public AccuracyRunner(final PrintStream log, final boolean progress)
    {
        this(log, progress, 1);
    }

    /**
     * @param log      where run seeds and skipped filters are reported.
     * @param progress whether to show a progress bar (on stderr).
     * @param threads  passes run at once: 1 feeds every configuration from one pass; more gives each
     *                 configuration its own pass, run on this many threads.
     * @throws IllegalArgumentException when threads &lt; 1.
     */
    public AccuracyRunner(final PrintStream log, final boolean progress, final int threads)
    {
        if (threads < 1)
        {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        this.log = log;
        this.progress = progress;
        this.threads = threads;
    }

    /**
     * @param experiment what to run.
     * @return the averaged rates.
     */
    public ExperimentResult run(final Experiment experiment)
    {
        final long start = System.nanoTime();
        final List<Config> configs = configs(experiment);
        final int n = configs.size();
        final long length = experiment.stream().length();
        final long[] positions = checkpoints(length, experiment.checkpoints());
        final double[][][][] rates = new double[experiment.runs()][n][positions.length][];
        final long[][] runSeeds = new long[experiment.runs()][2];
        final SplittableRandom seeds = new SplittableRandom(experiment.seed());
        final String[] parameters = new String[n];
        final String[] failures = new String[n];
        final long[] windows = new long[n];
        final long[] stateBits = new long[n];
        final double[] duplicates = new double[experiment.runs()];
        final int[][] lanes = lanes(n);
        final ExecutorService pool = lanes.length > 1 ? Executors.newFixedThreadPool(threads) : null;
        try (ProgressBar bar = progress ? progressBar(experiment, lanes.length) : null)
        {
            for (int run = 0; run < experiment.runs(); run++)
            {
                final long streamSeed = seeds.nextLong();
                final long filterSeed = seeds.nextLong();
                runSeeds[run][0] = streamSeed;
                runSeeds[run][1] = filterSeed;
                log.printf(Locale.ROOT, "%s run %d: stream seed %d, filter seed %d%n", experiment.stream().name(),
                    run, streamSeed, filterSeed);
                final DuplicateFilter[] filters = new DuplicateFilter[n];
                try
                {
                    for (int c = 0; c < n; c++)
                    {
                        filters[c] = create(configs.get(c), filterSeed, parameters, failures, windows, stateBits, c,
                            run == 0);
                    }
                    duplicates[run] = runLanes(pool, lanes, experiment, streamSeed, filters, windows, positions,
                        rates[run], bar);
                }
                finally
                {
                    for (final DuplicateFilter filter : filters)
                    {
                        if (filter != null)
                        {
                            filter.close();
                        }
                    }
                }
            }
        }
        finally
        {
            if (pool != null)
            {
                pool.shutdownNow();
            }
        }
        final List<ConfigResult> results = new ArrayList<>();
        for (int c = 0; c < n; c++)
        {
            final Config config = configs.get(c);
            if (failures[c] != null)
            {
                results.add(new ConfigResult(c, config.spec, config.memoryBits, windows[c], null, failures[c],
                    positions, null, null));
                continue;
            }
            final double[][] mean = new double[positions.length][METRICS];
            final double[] sd = new double[positions.length];
            final int headline = (windows[c] > 0 ? ConfigResult.Metric.ERROR_W : ConfigResult.Metric.ERROR).ordinal();
            for (int j = 0; j < positions.length; j++)
            {
                for (int m = 0; m < METRICS; m++)
                {
                    mean[j][m] = mean(rates, c, j, m);
                }
                sd[j] = sd(rates, c, j, headline, mean[j][headline]);
            }
            results.add(new ConfigResult(c, config.spec, config.memoryBits, windows[c], parameters[c], null,
                positions, mean, sd, stateBits[c]));
        }
        return new ExperimentResult(experiment, results, runSeeds, Arrays.stream(duplicates).average().orElse(Double.NaN),
            (System.nanoTime() - start) / 1e9);
    }

    /** @return one lane of every configuration, or one configuration per lane when running threaded. */
    private int[][] lanes(final int n)
    {
        if (threads == 1 || n <= 1)
        {
            final int[] all = new int[n];
            Arrays.setAll(all, c -> c);
            return new int[][] {all};
        }
        final int[][] lanes = new int[n][];
        for (int c = 0; c < n; c++)
        {
            lanes[c] = new int[] {c};
        }
        return lanes;
    }

    /** @return the share of the stream's elements seen before (the same for every lane). */
    private static double runLanes(final ExecutorService pool, final int[][] lanes, final Experiment experiment,
        final long streamSeed, final DuplicateFilter[] filters, final long[] windows, final long[] positions,
        final double[][][] rates, final ProgressBar bar)
    {
        if (pool == null)
        {
            return runOnce(experiment, streamSeed, lanes[0], filters, windows, positions, rates, bar);
        }
        final List<Future<Double>> done = new ArrayList<>();
        for (final int[] lane : lanes)
        {
            done.add(pool.submit(() -> runOnce(experiment, streamSeed, lane, filters, windows, positions, rates, bar)));
        }
        double duplicates = Double.NaN;
        for (final Future<Double> future : done)
        {
            try
            {
                duplicates = future.get();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            catch (final ExecutionException e)
            {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
        return duplicates;
    }

    /**
     * One pass over the stream feeding the lane's configurations; writes their rates at each checkpoint.
     *
     * @return the share of the stream's elements seen before.
     */
    private static double runOnce(final Experiment experiment, final long streamSeed, final int[] lane,
        final DuplicateFilter[] filters, final long[] windows, final long[] positions, final double[][][] rates,
        final ProgressBar bar)
    {
        final int n = filters.length;
        long horizon = 0;
        for (final int c : lane)
        {
            horizon = Math.max(horizon, windows[c]);
        }
        final long length = experiment.stream().length();
        final long[] counts = new long[n * COUNTERS];
        int checkpoint = 0;
        long seenBefore = 0;
        long streamed = 0;
        try (ElementStream stream = experiment.stream().open(streamSeed))
        {
            final GroundTruth truth = new GroundTruth(stream.keySpace(), length, horizon);
            for (long pos = 0; pos < length && stream.next(); pos++)
            {
                final long distance = truth.observe(stream.key());
                final boolean seen = distance != GroundTruth.NEVER;
                seenBefore += seen ? 1 : 0;
                streamed++;
                for (final int c : lane)
                {
                    final DuplicateFilter filter = filters[c];
                    if (filter == null)
                    {
                        continue;
                    }
                    final boolean judged = stream.feed(filter) == Verdict.DUPLICATE;
                    final int base = c * COUNTERS;
                    tally(counts, base, seen, judged);
                    if (windows[c] > 0)
                    {
                        tally(counts, base + 4, GroundTruth.inWindow(distance, windows[c]), judged);
                    }
                }
                if (pos + 1 == positions[checkpoint])
                {
                    for (final int c : lane)
                    {
                        rates[c][checkpoint] = rates(counts, c * COUNTERS, windows[c] > 0);
                    }
                    checkpoint++;
                }
                if (bar != null && (pos + 1) % PROGRESS_STEP == 0)
                {
                    bar.stepBy(PROGRESS_STEP);
                }
            }
        }
        if (bar != null)
        {
            bar.stepBy(length - streamed / PROGRESS_STEP * PROGRESS_STEP);
        }
        // A file shorter than asked: the remaining checkpoints repeat the final rates.
        for (; checkpoint < positions.length; checkpoint++)
        {
            for (final int c : lane)
            {
                rates[c][checkpoint] = rates(counts, c * COUNTERS, windows[c] > 0);
            }
        }
        return streamed == 0 ? Double.NaN : (double)seenBefore / streamed;
    }

    private static void tally(final long[] counts, final int base, final boolean duplicate, final boolean judged)
    {
        if (duplicate)
        {
            counts[base + 2]++;
            counts[base + 3] += judged ? 0 : 1;
        }
        else
        {
            counts[base]++;
            counts[base + 1] += judged ? 1 : 0;
        }
    }

    private static double[] rates(final long[] counts, final int base, final boolean windowed)
    {
        final double fpr = ratio(counts[base + 1], counts[base]);
        final double fnr = ratio(counts[base + 3], counts[base + 2]);
        final double fprW = windowed ? ratio(counts[base + 5], counts[base + 4]) : Double.NaN;
        final double fnrW = windowed ? ratio(counts[base + 7], counts[base + 6]) : Double.NaN;
        return new double[] {fpr, fnr, fpr + fnr, fprW, fnrW, fprW + fnrW};
    }

    private static double ratio(final long part, final long whole)
    {
        return whole == 0 ? Double.NaN : (double)part / whole;
    }

    private static double mean(final double[][][][] rates, final int c, final int j, final int m)
    {
        double sum = 0;
        int defined = 0;
        for (final double[][][] run : rates)
        {
            final double v = run[c][j][m];
            if (!Double.isNaN(v))
            {
                sum += v;
                defined++;
            }
        }
        return defined == 0 ? Double.NaN : sum / defined;
    }

    private static double sd(final double[][][][] rates, final int c, final int j, final int m, final double mean)
    {
        double sum = 0;
        int defined = 0;
        for (final double[][][] run : rates)
        {
            final double v = run[c][j][m];
            if (!Double.isNaN(v))
            {
                sum += (v - mean) * (v - mean);
                defined++;
            }
        }
        return defined < 2 ? Double.NaN : Math.sqrt(sum / (defined - 1));
    }

    private DuplicateFilter create(final Config config, final long seed, final String[] parameters,
        final String[] failures, final long[] windows, final long[] stateBits, final int c, final boolean first)
    {
        if (failures[c] != null)
        {
            return null;
        }
        try
        {
            final DuplicateFilter filter = config.spec.create(config.memoryBits, config.window, seed);
            if (first)
            {
                final java.util.Map<String, String> described = FilterSpec.describe(filter);
                parameters[c] = described.toString();
                stateBits[c] = FilterSpec.stateBits(filter);
                long window = config.spec.window(config.memoryBits, config.window);
                final String own = described.get("window");
                if (window == 0 && own != null)
                {
                    // A windowed kind on its default window is judged against that window.
                    window = Long.parseLong(own);
                }
                windows[c] = window;
            }
            return filter;
        }
        catch (final IllegalArgumentException e)
        {
            failures[c] = e.getMessage();
            windows[c] = config.spec.window(config.memoryBits, config.window);
            log.printf(Locale.ROOT, "skipping %s at %d bits: %s%n", config.spec.label(), config.memoryBits,
                e.getMessage());
            return null;
        }
    }

    private static ProgressBar progressBar(final Experiment experiment, final int lanes)
    {
        return new ProgressBarBuilder()
            .setTaskName(experiment.stream().name())
            .setInitialMax(experiment.runs() * experiment.stream().length() * lanes)
            .setConsumer(new ConsoleProgressBarConsumer(System.err))
            .setUpdateIntervalMillis(1000)
            .showSpeed()
            .build();
    }

    /**
     * @param length      stream length.
     * @param checkpoints how many.
     * @return evenly spaced positions ending at length, increasing, without repeats.
     */
    static long[] checkpoints(final long length, final int checkpoints)
    {
        final int count = (int)Math.min(checkpoints, Math.max(1, length));
        final long[] positions = new long[count];
        for (int j = 0; j < count; j++)
        {
            positions[j] = Math.max(1, (length * (j + 1)) / count);
        }
        return Arrays.stream(positions).distinct().toArray();
    }

    /**
     * Every filter that takes a memory at each memory, and every filter at each window (one that takes no window
     * is still judged against it).
     */
    static List<Config> configs(final Experiment experiment)
    {
        final List<Config> configs = new ArrayList<>();
        for (final FilterSpec spec : experiment.filters())
        {
            final List<Long> memories = spec.takesMemory() ? experiment.memories() : List.of(0L);
            for (final long memory : memories)
            {
                for (final long window : experiment.windows())
                {
                    configs.add(new Config(spec, memory, window));
                }
            }
        }
        return configs;
    }

    /**
     * @param spec       the filter.
     * @param memoryBits its memory (0 when it takes none).
     * @param window     the run's window (0 for none).
     */
    record Config(FilterSpec spec, long memoryBits, long window)
    {
    }
}
