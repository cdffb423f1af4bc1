package io.ddf.engine.cuckoo;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;

import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * Not a test: a small main measuring FPR, FNR and time per stream of the cuckoo family (and SQF for reference) on
 * one common stream, for the family's report. Usage: {@code [log2 memory bits] [log2 elements] [log2 universe]
 * [seed]}, default 20 20 18 1: 2^20 elements drawn uniformly from 2^18 values into filters of 2^20 bits.
 */
public final class CuckooFamilyMeasurement
{
    private CuckooFamilyMeasurement()
    {
    }

    /**
     * @param args optional log2 memory, log2 stream length, log2 universe, seed.
     */
    public static void main(final String[] args)
    {
        final int logMemory = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        final int logElements = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        final int logUniverse = args.length > 2 ? Integer.parseInt(args[2]) : 18;
        final long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        final long memory = 1L << logMemory;
        final long[] stream = new SplittableRandom(seed).longs(1L << logElements, 0, 1L << logUniverse).toArray();
        System.out.printf("stream: 2^%d elements uniform over 2^%d, memory 2^%d bits, seed %d%n", logElements,
            logUniverse, logMemory, seed);
        run("cuckoo b=4 f=16 max-kicks=500", Filters.builder(FilterKind.CUCKOO).memoryBits(memory), stream);
        run("cuckoo b=4 f=16 max-kicks=20",
            Filters.builder(FilterKind.CUCKOO).memoryBits(memory).param("max-kicks", 20), stream);
        run("cuckoo b=1 f=3 max-kicks=500 (seed 000 Table 2 cells)",
            Filters.builder(FilterKind.CUCKOO).memoryBits(memory).buckets(1).fingerprintBits(3), stream);
        run("dsqf k=4 r=16 r'=8", Filters.builder(FilterKind.DSQF).memoryBits(memory), stream);
        run("dsqf k=4 r=6 r'=2", Filters.builder(FilterKind.DSQF).memoryBits(memory).remainderBits(6).reducedBits(2),
            stream);
        run("sqf k=4 r=16 r'=8 (reference)", Filters.builder(FilterKind.SQF).memoryBits(memory), stream);
    }

    private static void run(final String name, final FilterBuilder builder, final long[] stream)
    {
        final BitSet seen = new BitSet();
        long unseen = 0;
        long falsePositives = 0;
        long duplicates = 0;
        long falseNegatives = 0;
        final long start;
        final long elapsed;
        final Verdict[] verdicts = new Verdict[stream.length];
        try (DuplicateFilter filter = builder.create())
        {
            start = System.nanoTime();
            for (int i = 0; i < stream.length; i++)
            {
                verdicts[i] = filter.stream(stream[i]);
            }
            elapsed = System.nanoTime() - start;
            System.out.printf("%-50s %s%n", name, filter.parameters().toMap());
        }
        for (int i = 0; i < stream.length; i++)
        {
            final int e = (int)stream[i];
            if (seen.get(e))
            {
                duplicates++;
                falseNegatives += verdicts[i] == Verdict.UNSEEN ? 1 : 0;
            }
            else
            {
                seen.set(e);
                unseen++;
                falsePositives += verdicts[i] == Verdict.DUPLICATE ? 1 : 0;
            }
        }
        System.out.printf("%-50s FPR %.4f  FNR %.4f  FPR+FNR %.4f  %.0f ns/stream%n", "", (double)falsePositives / unseen,
            (double)falseNegatives / duplicates, (double)falsePositives / unseen + (double)falseNegatives / duplicates,
            (double)elapsed / stream.length);
    }
}
