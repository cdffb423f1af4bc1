package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** The reproductions {@code --preset} names, with the figures of the papers they reproduce. */
public final class Presets
{
    private static final long SEED = 2026;
    private static final int CHECKPOINTS = 100;
    private static final Map<String, Function<Integer, Reproduction>> PRESETS = new TreeMap<>(Map.of(
        "seed000-table1", Presets::seed000Table1,
        "seed000-table5", Presets::seed000Table5,
        "seed000-table2", Presets::seed000Table2,
        "seed001-fig5", Presets::seed001Fig5,
        "seed001-fig6", Presets::seed001Fig6,
        "seed001-fig2", Seed001Presets::fig2,
        "seed001-fig7", Seed001Presets::fig7,
        "seed003-table4", Seed003Presets::table4,
        "seed004-table2", Seed004Presets::table2));

    private Presets()
    {
    }

    /** @return the preset names. */
    public static List<String> names()
    {
        final List<String> names = new ArrayList<>(PRESETS.keySet());
        names.add(TunerComparison.PRESET); // built at its scale by AccuracyCommand (the tuner runs per scaled cell)
        names.add(WindowMemory.PRESET); // likewise (its capacities scale with the window)
        return names;
    }

    /**
     * @param name a preset name.
     * @param runs runs to average, or null for the paper's number.
     * @return the reproduction, unscaled.
     * @throws IllegalArgumentException for an unknown name.
     */
    public static Reproduction get(final String name, final Integer runs)
    {
        final Function<Integer, Reproduction> preset = PRESETS.get(name);
        if (preset == null)
        {
            throw new IllegalArgumentException("unknown preset '" + name + "' (valid: " + names() + ")");
        }
        return preset.apply(runs);
    }

    /** Seed 000 Table 1: QHTs of ~65,536 bits with k/S = 1/4, 100,000 uniform elements from 2^20, 10 runs. */
    private static Reproduction seed000Table1(final Integer runs)
    {
        final double[] fpr = {22.57, 23.25, 23.53, 23.62, 23.50};
        final double[] fnr = {35.89, 44.24, 50.77, 54.55, 58.73};
        final double[] error = {58.45, 67.49, 74.30, 78.17, 82.23};
        final List<FilterSpec> filters = new ArrayList<>();
        final PaperFigures paper = new PaperFigures("seed 000 Table 1");
        for (int s = 2; s <= 6; s++)
        {
            final String label = String.format(Locale.ROOT, "S=%d (k=%d,s=%d)", 1 << s, (1 << s) / 4, s);
            filters.add(FilterSpec.parse(label + "@qht:buckets=" + (1 << s) / 4 + ",fingerprint-bits=" + s));
            paper.put(0, 0, label, fpr[s - 2], fnr[s - 2], error[s - 2]);
        }
        return new Reproduction("Seed 000 Table 1: error rates of QHTs with the same asymptotic FPR",
            "QHTs of 65,536 bits with k/S = 1/4 (the paper's S = 2^s; ddf reserves 0 for an empty cell, so it " +
                "has 2^s - 1 distinct fingerprints, seed 000 §3.2 option 3), 100,000 elements uniform over 2^20.",
            List.of(new Experiment(StreamSpec.uniform(1 << 20, 100_000), filters, List.of(65_536L), List.of(),
                runs == null ? 10 : runs, CHECKPOINTS, SEED)), paper);
    }

    /** Seed 000 Table 5 (artificial stream): QHT against QQHTD, k = 2..16, S = 8..64, 65,536 bits. */
    private static Reproduction seed000Table5(final Integer runs)
    {
        final double[] qht = {67.39, 74.48, 79.32, 82.10};
        final double[] qqhtd = {67.91, 74.41, 79.19, 82.26};
        final List<FilterSpec> filters = new ArrayList<>();
        final PaperFigures paper = new PaperFigures("seed 000 Table 5");
        for (final String kind : new String[] {"qht", "qqhtd"})
        {
            for (int s = 3; s <= 6; s++)
            {
                final int k = (1 << s) / 4;
                final String label = String.format(Locale.ROOT, "%s k=%d,S=%d", kind.toUpperCase(Locale.ROOT), k,
                    1 << s);
                filters.add(FilterSpec.parse(label + "@" + kind + ":buckets=" + k + ",fingerprint-bits=" + s));
                paper.put(0, 0, label, Double.NaN, Double.NaN, (kind.equals("qht") ? qht : qqhtd)[s - 3]);
            }
        }
        return new Reproduction("Seed 000 Table 5: QHT against QQHTD with the same parameters",
            "65,536 bits, 100,000 elements uniform over 2^20 (the paper's \"artificial, 4.62 %\" row; its \"real\" " +
                "row used a CommonCrawl URL dump that is not available here).",
            List.of(new Experiment(StreamSpec.uniform(1 << 20, 100_000), filters, List.of(65_536L), List.of(),
                runs == null ? 10 : runs, CHECKPOINTS, SEED)), paper);
    }

    /** Seed 000 Tables 2 and 4: six filters, 10 kbit to 8 Mbit, 150,000,000 uniform elements from 2^24 and 2^27. */
    private static Reproduction seed000Table2(final Integer runs)
    {
        final String[] labels = {"SQF", "QHT/QQHTD", "Cuckoo", "SBF", "A2", "b_DBF"};
        final String[] specs = {
            "sqf:buckets=1,remainder-bits=2,reduced-bits=1",
            "qht:buckets=1,fingerprint-bits=3",
            "cuckoo:buckets=1,fingerprint-bits=3",
            "sbf:cell-bits=2,hash-functions=2,target-fpr=0.02",
            // A2 aimed at FPR 0.1: each buffer of M/2 bits holds n = (M/2)(ln 2)^2 / ln 10 elements, so w = 2n.
            "a2:window=0.2087*M",
            "bdbf:window=6000"};
        final List<FilterSpec> filters = FilterSpec.labelled(labels, specs);
        // Table 2 (error x100) and Table 4 (FPR % / FNR %), artificial streams, memories 8e6, 1e6, 1e5, 1e4.
        final double[][][] table = {
            {
                {86.49, 21.87, 64.62, 82.76, 12.02, 70.74, 96.94, 27.80, 69.14, 97.79, 25.94, 71.85, 88.06, 35.22,
                    52.84, 99.96, 0.00, 99.96},
                {98.27, 24.60, 73.67, 97.80, 14.00, 83.80, 99.60, 28.41, 71.19, 99.74, 26.43, 73.30, 98.49, 37.72,
                    60.77, 99.96, 0.17, 99.79},
                {99.78, 24.94, 74.84, 99.79, 14.26, 85.53, 99.96, 28.52, 71.44, 99.98, 26.49, 73.49, 99.84, 38.00,
                    61.83, 99.96, 27.46, 72.51},
                {99.97, 24.98, 74.99, 99.97, 14.28, 85.69, 100.02, 28.55, 71.47, 99.99, 26.50, 73.50, 100.00, 38.03,
                    61.97, 99.98, 99.67, 0.31}},
            {
                {96.51, 24.42, 72.09, 95.37, 13.86, 81.52, 99.21, 28.39, 70.82, 99.40, 26.40, 73.00, 96.86, 37.54,
                    59.32, 99.99, 0.00, 99.99},
                {99.56, 24.92, 74.64, 99.42, 14.24, 85.18, 99.91, 28.50, 71.41, 99.91, 26.47, 73.44, 99.60, 38.00,
                    61.60, 99.99, 0.17, 99.82},
                {99.94, 24.99, 74.96, 99.95, 14.29, 85.66, 100.00, 28.51, 71.49, 99.99, 26.49, 73.50, 99.96, 38.05,
                    61.91, 99.98, 27.46, 72.52},
                {100.00, 25.00, 74.99, 100.00, 14.28, 85.72, 100.00, 28.52, 71.49, 100.00, 26.49, 73.51, 99.99, 38.02,
                    61.97, 100.00, 99.69, 0.31}}};
        final PaperFigures paper = new PaperFigures("seed 000 Tables 2 and 4");
        for (int e = 0; e < 2; e++)
        {
            for (int m = 0; m < 4; m++)
            {
                for (int f = 0; f < labels.length; f++)
                {
                    final double[] row = table[e][m];
                    paper.put(e, m, labels[f], row[3 * f + 1], row[3 * f + 2], row[3 * f]);
                }
            }
        }
        final int r = runs == null ? 5 : runs;
        final List<Long> memories = List.of(8_000_000L, 1_000_000L, 100_000L, 10_000L);
        return new Reproduction("Seed 000 Tables 2 and 4: six filters on streams of 150,000,000 elements",
            "Uniform streams over 2^24 and 2^27 (the paper's 88.82 % and 39.79 % rows; its \"real\" CommonCrawl " +
                "stream is not available here). A2's window is sized for FPR 0.1 per buffer (the paper gives no " +
                "window); b_DBF's window is 6000. --scale multiplies length, alphabet, memories and windows alike.",
            List.of(
                new Experiment(StreamSpec.uniform(1L << 24, 150_000_000L), filters, memories, List.of(), r,
                    CHECKPOINTS, SEED),
                new Experiment(StreamSpec.uniform(1L << 27, 150_000_000L), filters, memories, List.of(), r,
                    CHECKPOINTS, SEED + 1)),
            paper);
    }

    /** The filters of seed 000 Table 2 whose queued forms seed 001 compares. */
    private static final String[] QUEUED = {
        "qht:subfilters=10,buckets=1,fingerprint-bits=3",
        "sqf:subfilters=10,buckets=1,remainder-bits=2,reduced-bits=1",
        "cuckoo:subfilters=10,buckets=1,fingerprint-bits=3",
        "sbf:subfilters=10,cell-bits=2,hash-functions=2,target-fpr=0.02"};

    /** Seed 001 Fig. 5: queued filters, L = 10, M = 10^5, uniform 2^18, 10^7 elements, against the window. */
    private static Reproduction seed001Fig5(final Integer runs)
    {
        final String[] labels = {"queued QHT", "queued SQF", "queued Cuckoo", "queued SBF"};
        final List<FilterSpec> filters = FilterSpec.labelled(labels, QUEUED);
        return new Reproduction("Seed 001 Fig. 5: queued filters against the window",
            "L = 10, M = 100,000 bits, uniform over 2^18, 10^7 elements; subfilters with seed 000 Table 2's " +
                "parameters (seed 001 does not give them). The figure is a plot: compare its shape, not numbers.",
            List.of(new Experiment(StreamSpec.uniform(1 << 18, 10_000_000L), filters, List.of(100_000L),
                List.of(100L, 300L, 1_000L, 3_000L, 10_000L, 30_000L, 100_000L), runs == null ? 1 : runs,
                CHECKPOINTS, SEED)),
            PaperFigures.NONE);
    }

    /** Seed 001 Fig. 6: queued QHT against L, several windows, M = 10^5, uniform 2^18, 10^6 elements. */
    private static Reproduction seed001Fig6(final Integer runs)
    {
        final List<FilterSpec> filters = new ArrayList<>();
        // The queuing construction needs w = c·L: every L here divides every window.
        for (final int l : new int[] {1, 2, 4, 5, 8, 10, 20, 25, 40, 50})
        {
            filters.add(FilterSpec.parse("L=" + l + "@qht:subfilters=" + l + ",buckets=1,fingerprint-bits=3"));
        }
        return new Reproduction("Seed 001 Fig. 6: queued QHT against the number of subfilters L",
            "M = 100,000 bits, uniform over 2^18, 10^6 elements; QHT subfilters with k = 1, s = 3. A plot in the " +
                "paper: compare its shape.",
            List.of(new Experiment(StreamSpec.uniform(1 << 18, 1_000_000L), filters, List.of(100_000L),
                List.of(1_000L, 10_000L, 100_000L), runs == null ? 1 : runs, CHECKPOINTS, SEED)),
            PaperFigures.NONE);
    }
}
