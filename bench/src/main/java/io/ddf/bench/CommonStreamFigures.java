package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Every filter kind on one common stream: n elements drawn uniformly from an alphabet, each kind at the same
 * memory (where it takes one) and the windowed kinds at one window. Prints, per kind, its parameters and its
 * FPR and FNR against exact ground truth, unbounded (ever seen before) and windowed (seen in the last w).
 *
 * <p>Usage: {@code CommonStreamFigures [n] [alphabet] [memoryBits] [window] [seed]}, defaults
 * 2^20, 2^18, 2^20, 2^13, 1.
 */
public final class CommonStreamFigures
{
    private CommonStreamFigures()
    {
    }

    /**
     * @param args n, alphabet, memory bits, window, seed.
     */
    public static void main(final String[] args)
    {
        final int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        final int alphabet = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 18;
        final long memoryBits = args.length > 2 ? Long.parseLong(args[2]) : 1L << 20;
        final long window = args.length > 3 ? Long.parseLong(args[3]) : 1L << 13;
        final long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
        final int[] stream = new SplittableRandom(seed).ints(n, 0, alphabet).toArray();
        System.out.printf(Locale.ROOT, "stream: %d elements uniform over %d (seed %d); memory %d bits; window %d%n",
            n, alphabet, seed, memoryBits, window);
        System.out.println("| kind | parameters | FPR % | FNR % | FPR^w % | FNR^w % |");
        System.out.println("| --- | --- | --- | --- | --- | --- |");
        for (final FilterKind kind : FilterKind.values())
        {
            if (kind == FilterKind.QUEUE)
            {
                continue;
            }
            report(kind.cliName(), builder(kind, memoryBits, window), stream, alphabet, window);
        }
        report("qht, queued L=8", Filters.builder(FilterKind.QHT).memoryBits(memoryBits).window(window).subfilters(8),
            stream, alphabet, window);
        report("sqf, queued L=8", Filters.builder(FilterKind.SQF).memoryBits(memoryBits).window(window).subfilters(8),
            stream, alphabet, window);
    }

    private static FilterBuilder builder(final FilterKind kind, final long memoryBits, final long window)
    {
        final FilterBuilder builder = Filters.builder(kind);
        if (kind.takes("memory-bits"))
        {
            builder.memoryBits(memoryBits);
        }
        if (kind.takes("window"))
        {
            builder.window(window);
        }
        return builder;
    }

    /**
     * A filter's error rates on a stream, against exact ground truth, in percent.
     *
     * @param parameters     the filter's parameters.
     * @param falsePositive  FPR: elements never seen before judged DUPLICATE, of those elements.
     * @param falseNegative  FNR: elements seen before judged UNSEEN, of those elements.
     * @param falsePositiveW FPR^w: elements not seen in the last w judged DUPLICATE, of those.
     * @param falseNegativeW FNR^w: elements seen in the last w judged UNSEEN, of those.
     */
    public record Rates(String parameters, double falsePositive, double falseNegative, double falsePositiveW,
        double falseNegativeW)
    {
    }

    private static void report(final String name, final FilterBuilder builder, final int[] stream, final int alphabet,
        final long window)
    {
        final Rates rates = measure(builder, stream, alphabet, window);
        System.out.printf(Locale.ROOT, "| %s | %s | %.3f | %.3f | %.3f | %.3f |%n", name, rates.parameters(),
            rates.falsePositive(), rates.falseNegative(), rates.falsePositiveW(), rates.falseNegativeW());
    }

    /**
     * Streams every element through a new filter (hash seed 7) and compares each verdict with the truth.
     *
     * @param builder  the filter, without a file.
     * @param stream   the elements, each in [0, alphabet).
     * @param alphabet the number of distinct elements the stream may hold.
     * @param window   w, for the windowed rates: an element is a duplicate in the window when its last occurrence
     *                 is at most w positions back.
     * @return its rates.
     */
    public static Rates measure(final FilterBuilder builder, final int[] stream, final int alphabet,
        final long window)
    {
        final int[] lastSeen = new int[alphabet];
        Arrays.fill(lastSeen, -1);
        long unseen = 0;
        long falsePositives = 0;
        long duplicates = 0;
        long falseNegatives = 0;
        long unseenW = 0;
        long falsePositivesW = 0;
        long duplicatesW = 0;
        long falseNegativesW = 0;
        final String parameters;
        try (DuplicateFilter filter = builder.seed(7).create())
        {
            parameters = filter.parameters().toString();
            for (int i = 0; i < stream.length; i++)
            {
                final int e = stream[i];
                final boolean judgedDuplicate = filter.stream((long)e) == Verdict.DUPLICATE;
                final int last = lastSeen[e];
                if (last < 0)
                {
                    unseen++;
                    falsePositives += judgedDuplicate ? 1 : 0;
                }
                else
                {
                    duplicates++;
                    falseNegatives += judgedDuplicate ? 0 : 1;
                }
                if (last >= 0 && i - last <= window)
                {
                    duplicatesW++;
                    falseNegativesW += judgedDuplicate ? 0 : 1;
                }
                else
                {
                    unseenW++;
                    falsePositivesW += judgedDuplicate ? 1 : 0;
                }
                lastSeen[e] = i;
            }
        }
        return new Rates(parameters, 100.0 * falsePositives / unseen, 100.0 * falseNegatives / duplicates,
            100.0 * falsePositivesW / unseenW, 100.0 * falseNegativesW / duplicatesW);
    }
}
