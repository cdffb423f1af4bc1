package io.ddf.engine.window;

import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameters of SHF and CSHF (sliding-window paper §3.2): memory M and window w, from which the fingerprint width f
 * follows, or f given instead of M (M is then the paper's memory for that f). Slots: memory-bits, window,
 * fingerprint-bits.
 *
 * <p>window defaults to 2^16; when only memory-bits is given and is too small for that, to the largest window whose
 * fingerprints keep Theorem 2's 2·log2 w bits (see {@link #windowFor}).
 *
 * <p>f is capped at 64: the element hash has 64 bits, so a larger budget cannot buy a longer fingerprint (the rest
 * of M goes unused; {@code table-bytes} shows what is used).
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
final class ShortHashParams
{
    static final int MEMORY = 0;
    static final int WINDOW = 1;
    static final int FINGERPRINT = 2;
    static final int MAX_FINGERPRINT_BITS = 64;

    static final List<ParamDef> PARAMS = List.of(CommonParams.MEMORY_BITS, CommonParams.WINDOW,
        CommonParams.FINGERPRINT_BITS);

    private ShortHashParams()
    {
    }

    /**
     * @param given   the given parameters.
     * @param compact CSHF (f = ⌊M / w⌋) rather than SHF (f = ⌊M / 2w − ½ log2 w⌋).
     * @return the slots.
     */
    static long[] resolve(final GivenParameters given, final boolean compact)
    {
        final String name = compact ? "CSHF" : "SHF";
        final String memory = CommonParams.MEMORY_BITS.name();
        final long w = given.has(CommonParams.WINDOW.name()) || !given.has(memory) ?
            WindowParams.window(given) : windowFor(given.getLong(memory, 0), compact);
        final String fingerprint = CommonParams.FINGERPRINT_BITS.name();
        if (given.has(memory) && given.has(fingerprint))
        {
            throw new IllegalArgumentException("give either memory-bits or fingerprint-bits, not both (" + name +
                " derives the fingerprint width from the memory and the window)");
        }
        final long m;
        final long f;
        if (given.has(fingerprint))
        {
            f = given.getLong(fingerprint, 0);
            check(f >= 1 && f <= MAX_FINGERPRINT_BITS, "fingerprint-bits must be in 1..64, got " + f);
            m = memoryFor(f, w, compact);
        }
        else
        {
            m = given.getLong(memory, WindowParams.DEFAULT_MEMORY_BITS);
            check(m >= 1 && m <= WindowParams.MAX_MEMORY_BITS, "memory-bits must be in 1..2^43, got " + m);
            final long exact = fingerprintBitsFor(m, w, compact);
            check(exact >= 1, "memory-bits " + m + " is too small for window " + w + ": " + name +
                " fingerprints would have " + (compact ? "floor(M / w)" : "floor(M / 2w - log2(w) / 2)") + " = " +
                exact + " bits; give memory-bits >= " + memoryFor(1, w, compact) + " or a smaller window");
            f = Math.min(exact, MAX_FINGERPRINT_BITS);
        }
        return new long[] {m, w, f};
    }

    /**
     * The default window when only the memory is given: 2^16, or, when M is too small for that, the largest window
     * whose fingerprints still have Theorem 2's 2·log2 w bits (false positive rate about 1/w), at least 1.
     *
     * @param m       M.
     * @param compact CSHF rather than SHF.
     * @return the window.
     */
    static long windowFor(final long m, final boolean compact)
    {
        long low = 1;
        long high = WindowParams.DEFAULT_WINDOW;
        while (low < high)
        {
            final long mid = (low + high + 1) >>> 1;
            if (fingerprintBitsFor(m, mid, compact) >= 2 * WindowParams.log2(mid))
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * @param slots the slots.
     * @throws IllegalArgumentException when out of range.
     */
    static void checkSlots(final long[] slots)
    {
        check(slots.length == PARAMS.size(), "expected " + PARAMS.size() + " parameters");
        check(slots[MEMORY] >= 1 && slots[MEMORY] <= WindowParams.MAX_MEMORY_BITS, "memory-bits out of range");
        check(slots[WINDOW] >= 1 && slots[WINDOW] <= WindowParams.MAX_WINDOW, "window out of range");
        check(slots[FINGERPRINT] >= 1 && slots[FINGERPRINT] <= MAX_FINGERPRINT_BITS, "fingerprint-bits out of range");
    }

    /**
     * @param m       M.
     * @param w       w.
     * @param compact CSHF rather than SHF.
     * @return the paper's fingerprint width, uncapped (may be ≤ 0).
     */
    static long fingerprintBitsFor(final long m, final long w, final boolean compact)
    {
        return compact ? m / w : (long)Math.floor((double)m / (2.0 * w) - WindowParams.log2(w) / 2);
    }

    /**
     * @param f       fingerprint bits.
     * @param w       w.
     * @param compact CSHF rather than SHF.
     * @return the paper's memory for that width: w·f (CSHF) or ⌈w·(2f + log2 w)⌉ (SHF).
     */
    static long memoryFor(final long f, final long w, final boolean compact)
    {
        return compact ? w * f : (long)Math.ceil(w * (2.0 * f + WindowParams.log2(w)));
    }

    /**
     * The false positive probability of Th. 3 for the fingerprint width in use, with 2^f − 1 fingerprints (0 is
     * never one): 1 − (1 − 1/(2^f − 1))^w.
     *
     * @param slots the slots.
     * @return the probability.
     */
    static double falsePositive(final long[] slots)
    {
        final double values = Math.pow(2, slots[FINGERPRINT]) - 1;
        return -Math.expm1(slots[WINDOW] * Math.log1p(-1 / values));
    }

    /**
     * @param slots the slots.
     * @return facts for {@code ddf info}.
     */
    static Map<String, String> describe(final long[] slots, final boolean compact)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        final long uncapped = fingerprintBitsFor(slots[MEMORY], slots[WINDOW], compact);
        if (uncapped > MAX_FINGERPRINT_BITS)
        {
            map.put("fingerprint-note", "capped at 64 bits (the paper's width for this memory is " + uncapped + ")");
        }
        map.put("fp-probability", Double.toString(falsePositive(slots)));
        return map;
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
