package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stable Bloom Filter (Deng and Rafiei): M bits of memory (default 2^26) as m cells of d bits (default 2, so
 * Max = 3), K hash functions (default 2) and a target FPR (default 0.02), the settings of the QHT paper §6.1. P, the
 * cells decremented per arrival, is derived from the target by solving the stable-point bound quoted in the QHT paper
 * footnote 12, FPR ≤ (1 − (1 / (1 + 1 / (P (1/K − 1/m))))^Max)^K, for P:
 * P = 1 / ((1 / (1 − FPR^(1/K))^(1/Max) − 1) · (1/K − 1/m)), rounded, at least 1.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class StableBloomDefinition extends KindDefinition
{
    /** Default d. */
    static final int DEFAULT_CELL_BITS = 2;
    /** Default K. */
    static final int DEFAULT_HASH_FUNCTIONS = 2;
    /** Default target FPR. */
    static final double DEFAULT_TARGET_FPR = 0.02;
    /** Widest cell: Max = 2^16 − 1 is already far beyond any useful setting. */
    static final int MAX_CELL_BITS = 16;

    static final int MEMORY = 0;
    static final int CELL_BITS = 1;
    static final int HASH_FUNCTIONS = 2;
    static final int TARGET_FPR = 3;
    static final int DECREMENTS = 4;

    /** The definition. */
    public StableBloomDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.SBF;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, BloomParams.CELL_BITS, CommonParams.HASH_FUNCTIONS,
            CommonParams.TARGET_FPR, BloomParams.DECREMENTS);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long memory = given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS);
        final long d = given.getLong(BloomParams.CELL_BITS.name(), DEFAULT_CELL_BITS);
        final long k = given.getLong(CommonParams.HASH_FUNCTIONS.name(), DEFAULT_HASH_FUNCTIONS);
        final double fpr = given.getDouble(CommonParams.TARGET_FPR.name(), DEFAULT_TARGET_FPR);
        checkOptions(memory, d, k, fpr);
        final long m = PackedCells.ofMemory(memory, (int)d).cells();
        require(m > k, "memory-bits " + memory + " holds only " + m + " cells of " + d + " bits; SBF needs more " +
            "cells than hash-functions (" + k + ")");
        final long p = decrements(fpr, (int)k, (int)((1L << d) - 1), m);
        require(p <= m, "target-fpr " + fpr + " needs P = " + p + " decrements per arrival, more than the " + m +
            " cells; raise target-fpr or memory-bits");
        final long[] slots = {memory, d, k, Double.doubleToLongBits(fpr), p};
        check(slots);
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 5, "expected 5 parameters");
        checkOptions(slots[MEMORY], slots[CELL_BITS], slots[HASH_FUNCTIONS],
            Double.longBitsToDouble(slots[TARGET_FPR]));
        final long m = PackedCells.ofMemory(slots[MEMORY], (int)slots[CELL_BITS]).cells();
        require(m > slots[HASH_FUNCTIONS], "fewer cells than hash functions");
        require(slots[DECREMENTS] >= 1 && slots[DECREMENTS] <= m, "decrements must be in 1..cells (" + m + "), got " +
            slots[DECREMENTS]);
    }

    private static void checkOptions(final long memory, final long d, final long k, final double fpr)
    {
        final String m = BloomParams.checkMemory(memory);
        require(m == null, m);
        require(d >= 1 && d <= MAX_CELL_BITS, "cell-bits must be in 1.." + MAX_CELL_BITS + ", got " + d);
        final String kk = BloomParams.checkHashFunctions(k);
        require(kk == null, kk);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
    }

    /**
     * Solves the stable-point bound for P.
     *
     * @param fpr target FPR.
     * @param k   hash functions K.
     * @param max Max = 2^d − 1.
     * @param m   cells.
     * @return P, at least 1.
     */
    static long decrements(final double fpr, final int k, final int max, final long m)
    {
        final double q = Math.pow(1 - Math.pow(fpr, 1.0 / k), 1.0 / max);
        final double p = 1 / ((1 / q - 1) * (1.0 / k - 1.0 / m));
        return Math.max(1, Math.round(p));
    }

    /**
     * The stable-point FPR bound for given parameters.
     *
     * @param p   decrements P.
     * @param k   hash functions K.
     * @param max Max.
     * @param m   cells.
     * @return (1 − (1 / (1 + 1 / (P (1/K − 1/m))))^Max)^K.
     */
    static double stableFpr(final long p, final int k, final int max, final long m)
    {
        final double zeroFraction = Math.pow(1 / (1 + 1 / (p * (1.0 / k - 1.0 / m))), max);
        return Math.pow(1 - zeroFraction, k);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return cacheLines(layout(slots).words() * 8);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final PackedCells layout = layout(slots);
        return new StableBloomCore(region.slice(0, layout.words()), layout, (int)slots[HASH_FUNCTIONS],
            slots[DECREMENTS]);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final PackedCells layout = layout(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("cells", Long.toString(layout.cells()));
        map.put("max", Long.toString(layout.cellMask()));
        map.put("stable-fpr", String.format(java.util.Locale.ROOT, "%.4g", stableFpr(slots[DECREMENTS],
            (int)slots[HASH_FUNCTIONS], (int)layout.cellMask(), layout.cells())));
        return map;
    }

    private static PackedCells layout(final long[] slots)
    {
        return PackedCells.ofMemory(slots[MEMORY], (int)slots[CELL_BITS]);
    }
}
