package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;
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
 * The exact windowed filter (sliding-window paper Th. 1): a ring of the last w elements' 64-bit hashes and a counting
 * table keyed by hash (see {@link RingCountCore}). Its only parameter is the window (default 2^16); its memory follows
 * (table-bytes): 64 bits per ring slot plus 128 bits per table cell, T = the power of two ≥ 2w cells (load ≤ ½). It
 * errs only when two distinct elements in one window share a 64-bit hash.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class ExactWindowDefinition extends KindDefinition
{
    private static final ParamDef P_WINDOW = CommonParams.WINDOW;

    /** The definition. */
    public ExactWindowDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.EXACT_WINDOW;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(P_WINDOW);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        return new long[] {WindowParams.window(given)};
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 1, "expected 1 parameter");
        require(slots[0] >= 1 && slots[0] <= WindowParams.MAX_WINDOW, "window out of range: " + slots[0]);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return bytesFor(slots[0]);
    }

    private static long bytesFor(final long window)
    {
        return RingCountCore.words(window, 0, CountingTable.cells(window)) * Long.BYTES;
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        return new RingCountCore(region, slots[0], 0, cells(slots));
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("table-cells", Long.toString(cells(slots)));
        return map;
    }

    private static long cells(final long[] slots)
    {
        return CountingTable.cells(slots[0]);
    }
}
