package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.NotAParameterException;
import io.ddf.engine.spi.ParamDef;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The queuing construction (sliding-window paper §5, Alg. 2) over any other kind: L subfilters of c = w / L insertions
 * each (see {@link QueueCore}). Chosen by giving a kind with {@code subfilters} (and {@code window}, default 2^16,
 * which must be a multiple of L).
 *
 * <p>Slots: inner-kind (the wrapped kind's code), subfilters L, window w, memory-bits (the TOTAL memory M), then the
 * inner kind's own slots (at most 12). Resolution:
 * <ul>
 *   <li>memory-bits is the total: each subfilter gets ⌊M / L⌋ (Alg. 2 line 4). Without it the subfilters share the
 *       default 2^26 bits, unless the other given parameters already size the inner kind (for example rows for a
 *       quotient filter, or fingerprint-bits for SHF, which make its memory differ from its default): each
 *       subfilter is then sized by them and memory-bits records L × the inner kind's memory-bits (0 when it has
 *       none or is sized by rows).</li>
 *   <li>An inner kind that takes a window itself (a2, bdbf, shf, cshf, exact-window) gets window c: each
 *       subfilter's sub-sliding window is its c insertions (§5.1).</li>
 *   <li>Every other given parameter goes to the inner kind, which checks it as it would on its own.</li>
 *   <li>A queue cannot wrap a queue.</li>
 * </ul>
 * The construction is given the kind it wraps ({@link #resolve(KindDefinition, GivenParameters)}), and the registry
 * to find it again by the code its slots store; it never builds a filter through the embedder API.
 *
 * <p>The table is L sub-tables, each the inner kind's table (a whole number of cache lines), each subfilter built over
 * its slice with no header state; the rotation state lives in the header's state words.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class QueueDefinition extends KindDefinition
{
    /** Largest number of subfilters. */
    static final long MAX_SUBFILTERS = 1L << 16;
    /** Largest table: 2^40 bytes, as for the other kinds. */
    static final long MAX_TABLE_BYTES = 1L << 40;

    static final int INNER = 0;
    static final int SUBFILTERS = 1;
    static final int WINDOW = 2;
    static final int MEMORY = 3;
    /** Slots before the inner kind's. */
    static final int OWN_SLOTS = 4;

    /** Name of the slot holding the code of the wrapped kind. */
    public static final String INNER_KIND = "inner-kind";

    private static final ParamDef P_INNER = ParamDef.derived(INNER_KIND,
        "Code of the kind the queuing construction wraps.");
    private static final ParamDef P_SUBFILTERS = ParamDef.longOption("subfilters",
        "Queuing construction: L subfilters of window/L each.");
    private static final List<ParamDef> PARAMS;
    private static final Set<String> OWN_NAMES = Set.of(P_INNER.name(), P_SUBFILTERS.name(),
        CommonParams.WINDOW.name(), CommonParams.MEMORY_BITS.name());
    /** Names toMap() gives outside the parameters, which an inner kind's facts must not overwrite. */
    private static final Set<String> RESERVED_NAMES = Set.of("kind", "inner", "table-bytes", "hash", "seed",
        "insertions-per-subfilter", "subfilter-table-bytes");

    static
    {
        final List<ParamDef> params = new ArrayList<>(List.of(P_INNER, P_SUBFILTERS, CommonParams.WINDOW,
            CommonParams.MEMORY_BITS));
        for (int i = 0; i < MAX_SLOTS; i++)
        {
            params.add(ParamDef.internal("subfilter-slot-" + i, "Parameter slot " + i + " of the subfilter kind."));
        }
        PARAMS = Collections.unmodifiableList(params);
    }

    private final IntFunction<KindDefinition> kinds;

    /**
     * @param kinds the registry: a kind's definition by its code, or null for an unknown code.
     */
    public QueueDefinition(final IntFunction<KindDefinition> kinds)
    {
        this.kinds = kinds;
    }

    /**
     * @param slots a queue's resolved parameters.
     * @return the code of the kind it wraps.
     */
    public static int innerCode(final long[] slots)
    {
        return (int)slots[INNER];
    }

    @Override
    public int code()
    {
        return KindCodes.QUEUE;
    }

    @Override
    public List<ParamDef> params()
    {
        return PARAMS;
    }

    /**
     * Needs the wrapped kind in the given parameters, as its code under {@link #INNER_KIND}; the embedder API gives
     * the definition itself through {@link #resolve(KindDefinition, GivenParameters)}.
     */
    @Override
    public long[] resolve(final GivenParameters given)
    {
        require(given.has(P_INNER.name()), "the queuing construction needs the kind it wraps");
        final KindDefinition inner = innerDefinition(given.getLong(P_INNER.name(), 0));
        final GivenParameters rest = new GivenParameters();
        for (final String name : given.names())
        {
            if (!name.equals(P_INNER.name()))
            {
                final Number value = given.get(name);
                if (value instanceof Double)
                {
                    rest.put(name, value.doubleValue());
                }
                else
                {
                    rest.put(name, value.longValue());
                }
            }
        }
        return resolve(inner, rest);
    }

    /**
     * Resolves a queue over the given kind.
     *
     * @param definition the kind to wrap, not itself a queue.
     * @param given      the parameters a user gave (subfilters, window, and the wrapped kind's own).
     * @return the slot values.
     * @throws IllegalArgumentException saying which parameter is wrong and why.
     */
    public long[] resolve(final KindDefinition definition, final GivenParameters given)
    {
        require(definition.code() != code() && definition.code() != KindCodes.FIFO_BLOOM,
            "a queuing construction cannot wrap another queuing construction (" + definition.name() + ")");
        require(given.has(P_SUBFILTERS.name()), "the queuing construction needs subfilters");
        final long l = given.getLong(P_SUBFILTERS.name(), 0);
        require(l >= 1 && l <= MAX_SUBFILTERS, "subfilters must be in 1.." + MAX_SUBFILTERS + ", got " + l);
        final long w = WindowParams.window(given);
        require(w >= l, "window " + w + " is smaller than subfilters " + l + ": each subfilter takes window / " +
            "subfilters >= 1 insertions");
        if (w % l != 0)
        {
            final long below = w - w % l;
            throw new IllegalArgumentException("window " + w + " is not a multiple of subfilters " + l +
                " (the window is c x L, c insertions per subfilter): give window " + below + " or " + (below + l) +
                ", or a number of subfilters that divides " + w);
        }
        final long c = w / l;
        final String memoryName = CommonParams.MEMORY_BITS.name();
        final String windowName = CommonParams.WINDOW.name();
        final boolean innerMemory = takes(definition, memoryName);
        for (final String name : given.names())
        {
            if (!name.equals(P_INNER.name()) && !name.equals(P_SUBFILTERS.name()) && !name.equals(windowName) &&
                (!takes(definition, name) || name.equals(memoryName) && !innerMemory))
            {
                throw new NotAParameterException(name, definition.name(), true, options(definition));
            }
        }
        final long[] innerSlots;
        final long total;
        if (given.has(memoryName))
        {
            total = given.getLong(memoryName, 0);
            require(total >= l, "memory-bits " + total + " is less than subfilters " + l);
            innerSlots = resolveInner(definition, given, l, c, total / l);
        }
        else if (innerMemory)
        {
            final long[] own = resolveInner(definition, given, l, c, -1);
            final int slot = definition.slotOf(memoryName);
            // The inner kind's memory when nothing sizes it, its own window included (exact-window derives its
            // memory from its window, so with window c its memory is not a default one).
            final long defaultMemory = definition.resolve(new GivenParameters())[slot];
            if (own[slot] == defaultMemory)
            {
                total = WindowParams.DEFAULT_MEMORY_BITS;
                innerSlots = resolveInner(definition, given, l, c, total / l);
            }
            else
            {
                total = l * own[slot];
                innerSlots = own;
            }
        }
        else
        {
            total = 0;
            innerSlots = resolveInner(definition, given, l, c, -1);
        }
        final long[] slots = new long[PARAMS.size()];
        slots[INNER] = definition.code();
        slots[SUBFILTERS] = l;
        slots[WINDOW] = w;
        slots[MEMORY] = total;
        System.arraycopy(innerSlots, 0, slots, OWN_SLOTS, innerSlots.length);
        require(l <= MAX_TABLE_BYTES / definition.tableBytes(innerSlots),
            "subfilters x the subfilter's table exceeds the largest table, 2^40 bytes");
        return slots;
    }

    /**
     * Resolves one subfilter's parameters as the inner kind resolves them alone, so it checks them as it would alone.
     *
     * @param memory each subfilter's memory-bits, or −1 to leave it to the inner kind.
     */
    private static long[] resolveInner(final KindDefinition definition, final GivenParameters given, final long l,
        final long c, final long memory)
    {
        final GivenParameters own = new GivenParameters();
        for (final String name : given.names())
        {
            if (OWN_NAMES.contains(name))
            {
                continue;
            }
            final ParamDef param = definition.params().get(definition.slotOf(name));
            if (param.type() == ParamDef.Type.DOUBLE)
            {
                own.put(name, given.getDouble(name, 0));
            }
            else
            {
                own.put(name, given.getLong(name, 0));
            }
        }
        if (takes(definition, CommonParams.WINDOW.name()))
        {
            own.put(CommonParams.WINDOW.name(), c);
        }
        if (memory >= 0)
        {
            own.put(CommonParams.MEMORY_BITS.name(), memory);
        }
        try
        {
            definition.checkOptions(own);
            return definition.resolve(own);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("each of the " + l + " " + definition.name() + " subfilters (window " +
                "c = " + c + (memory >= 0 ? ", memory-bits = " + memory : "") + "): " + e.getMessage(), e);
        }
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == PARAMS.size(), "expected " + PARAMS.size() + " parameters");
        final KindDefinition definition = innerDefinition(slots[INNER]);
        final long l = slots[SUBFILTERS];
        final long w = slots[WINDOW];
        require(l >= 1 && l <= MAX_SUBFILTERS, "subfilters out of range");
        require(w >= l && w <= WindowParams.MAX_WINDOW && w % l == 0, "window must be a multiple of subfilters");
        require(slots[MEMORY] >= 0, "memory-bits out of range");
        final int n = definition.params().size();
        for (int i = OWN_SLOTS + n; i < slots.length; i++)
        {
            require(slots[i] == 0, "slot " + i + " is set but " + definition.name() + " has " + n + " parameters");
        }
        final long[] innerSlots = innerSlots(slots, definition);
        definition.check(innerSlots);
        final int windowSlot = definition.slotOf(CommonParams.WINDOW.name());
        require(windowSlot < 0 || innerSlots[windowSlot] == w / l, "the subfilters' window must be window / subfilters");
        require(l <= MAX_TABLE_BYTES / definition.tableBytes(innerSlots), "table too large");
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return slots[SUBFILTERS] * subfilterBytes(slots);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        require(headerState != null, "the queuing construction keeps its rotation in the file header, so it cannot " +
            "be a subfilter");
        final KindDefinition definition = innerDefinition(slots[INNER]);
        final long[] innerSlots = innerSlots(slots, definition);
        final int l = (int)slots[SUBFILTERS];
        final long words = subfilterBytes(slots) / Long.BYTES;
        final FilterCore[] subfilters = new FilterCore[l];
        for (int i = 0; i < l; i++)
        {
            subfilters[i] = definition.core(innerSlots, region.slice(i * words, words), null);
        }
        return new QueueCore(subfilters, slots[WINDOW] / l, headerState);
    }

    /** Each subfilter's region by its own kind's check, naming the subfilter. */
    @Override
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final KindDefinition definition = innerDefinition(slots[INNER]);
        final long[] innerSlots = innerSlots(slots, definition);
        final long words = subfilterBytes(slots) / Long.BYTES;
        for (int i = 0; i < slots[SUBFILTERS]; i++)
        {
            try
            {
                definition.checkStructure(innerSlots, region.slice(i * words, words), null);
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("subfilter " + i + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final KindDefinition definition = innerDefinition(slots[INNER]);
        final long[] innerSlots = innerSlots(slots, definition);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("inner", definition.name());
        map.put("insertions-per-subfilter", Long.toString(slots[WINDOW] / slots[SUBFILTERS]));
        map.put("subfilter-table-bytes", Long.toString(subfilterBytes(slots)));
        final List<ParamDef> params = definition.params();
        for (int i = 0; i < params.size(); i++)
        {
            map.put(innerName(params.get(i).name()), params.get(i).format(innerSlots[i]));
        }
        for (final Map.Entry<String, String> e : definition.describe(innerSlots).entrySet())
        {
            map.put(innerName(e.getKey()), e.getValue());
        }
        return map;
    }

    /** An inner kind's name for a fact, prefixed when the queue's own names or the framework's would collide. */
    private static String innerName(final String name)
    {
        return OWN_NAMES.contains(name) || RESERVED_NAMES.contains(name) || name.startsWith("subfilter") ?
            "subfilter-" + name : name;
    }

    private long subfilterBytes(final long[] slots)
    {
        final KindDefinition definition = innerDefinition(slots[INNER]);
        return cacheLines(definition.tableBytes(innerSlots(slots, definition)));
    }

    private static long[] innerSlots(final long[] slots, final KindDefinition definition)
    {
        return Arrays.copyOfRange(slots, OWN_SLOTS, OWN_SLOTS + definition.params().size());
    }

    private KindDefinition innerDefinition(final long code)
    {
        final KindDefinition definition = code == (int)code ? kinds.apply((int)code) : null;
        require(definition != null, "inner-kind " + code + " is not a filter kind");
        require(definition.code() != code(), "a queuing construction cannot wrap another queuing construction");
        return definition;
    }

    private static boolean takes(final KindDefinition definition, final String name)
    {
        final int slot = definition.slotOf(name);
        return slot >= 0 && definition.params().get(slot).option();
    }

    private static List<String> options(final KindDefinition definition)
    {
        final List<String> takes = new ArrayList<>(List.of(P_SUBFILTERS.name(), CommonParams.WINDOW.name()));
        for (final ParamDef param : definition.params())
        {
            if (param.option() && !param.name().equals(CommonParams.WINDOW.name()))
            {
                takes.add(param.name());
            }
        }
        return takes;
    }
}
