package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.List;
import java.util.Map;

/**
 * The Short Hash Filter (sliding-window paper Alg. 1, Th. 3): a ring of the last w fingerprints of f = ⌊M / 2w − ½ log2
 * w⌋ bits and a counting dictionary fingerprint → occurrences (see {@link RingCountCore}); constant time. Parameters:
 * memory-bits M (default 2^26) or fingerprint-bits f instead, and window w (default 2^16). No false negative within the
 * window; false positive probability 1 − (1 − 1/(2^f − 1))^w.
 *
 * <p>Memory: the paper counts w·f bits of ring and w·(f + log2 w) of ideal dictionary. Here the dictionary is a
 * hash table of T = the power of two ≥ 2·min(w, 2^f − 1) cells (load ≤ ½, so deletions stay cheap), each a 64-bit
 * word (two when f + bits of w exceed 64), and ring slots do not straddle words: the table uses more than M
 * ({@code table-bytes}). The fingerprint width, and so the error rate, is the paper's.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class ShfDefinition extends KindDefinition
{
    /** The definition. */
    public ShfDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.SHF;
    }

    @Override
    public List<ParamDef> params()
    {
        return ShortHashParams.PARAMS;
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        return ShortHashParams.resolve(given, false);
    }

    @Override
    public void check(final long[] slots)
    {
        ShortHashParams.checkSlots(slots);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return RingCountCore.words(slots[ShortHashParams.WINDOW], fingerprintBits(slots), cells(slots)) * Long.BYTES;
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        return new RingCountCore(region, slots[ShortHashParams.WINDOW], fingerprintBits(slots), cells(slots));
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = ShortHashParams.describe(slots, false);
        map.put("table-cells", Long.toString(cells(slots)));
        return map;
    }

    private static int fingerprintBits(final long[] slots)
    {
        return (int)slots[ShortHashParams.FINGERPRINT];
    }

    /** T: at most min(w, 2^f − 1) distinct fingerprints are ever in the dictionary at once. */
    private static long cells(final long[] slots)
    {
        final long f = slots[ShortHashParams.FINGERPRINT];
        final long distinct = f >= 40 ? Long.MAX_VALUE : (1L << f) - 1;
        return CountingTable.cells(Math.min(slots[ShortHashParams.WINDOW], distinct));
    }
}
