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
 * The Compact Short Hash Filter (sliding-window paper §3.2, Th. 3): only a ring of the last w fingerprints of f = ⌊M /
 * w⌋ bits, searched by a linear scan, so each element costs O(w) (see {@link CompactRingCore}). Parameters: memory-bits
 * M (default 2^26) or fingerprint-bits f instead, and window w (default 2^16). No false negative within the window;
 * false positive probability 1 − (1 − 1/(2^f − 1))^w. Ring slots do not straddle words (⌊64 / f⌋ per word), so the
 * table may exceed M when f does not divide 64.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class CshfDefinition extends KindDefinition
{
    /** The definition. */
    public CshfDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.CSHF;
    }

    @Override
    public List<ParamDef> params()
    {
        return ShortHashParams.PARAMS;
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        return ShortHashParams.resolve(given, true);
    }

    @Override
    public void check(final long[] slots)
    {
        ShortHashParams.checkSlots(slots);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return CompactRingCore.words(slots[ShortHashParams.WINDOW], (int)slots[ShortHashParams.FINGERPRINT]) *
            Long.BYTES;
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        return new CompactRingCore(region, slots[ShortHashParams.WINDOW], (int)slots[ShortHashParams.FINGERPRINT]);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        return ShortHashParams.describe(slots, true);
    }
}
