package io.ddf.engine.spi;

import io.ddf.engine.memory.MappedWords;

import java.util.List;
import java.util.Map;

/**
 * What a filter kind is: its parameters (one header slot each, in order), how given parameters resolve into
 * slots, how much table it needs, and how to build its algorithm over a region of the table.
 *
 * <p>A kind has at most {@link #MAX_SLOTS} parameters, so that the queuing construction can store any kind's
 * parameters after its own four.
 */
public abstract class KindDefinition
{
    /** Largest number of parameter slots a wrappable kind may use. */
    public static final int MAX_SLOTS = 12;
    /** Words of the header's state region given to a top-level filter's kind (after the counters). */
    public static final int HEADER_STATE_WORDS = 64;

    /** @return the code of the kind defined, one of {@link KindCodes}, as a file header stores it. */
    public abstract int code();

    /** @return the kind's command-line name, for messages. */
    public final String name()
    {
        return KindCodes.name(code());
    }

    /** @return the parameters in slot order. */
    public abstract List<ParamDef> params();

    /**
     * Applies defaults, derives what follows from the given parameters, and checks that the combination makes
     * sense.
     *
     * @param given the parameters a user gave (only names of {@link #params()} that are options).
     * @return the slot values, one per parameter of {@link #params()}.
     * @throws IllegalArgumentException saying which parameter is wrong and why.
     */
    public abstract long[] resolve(GivenParameters given);

    /**
     * Checks slot values read from a file header (which a checksum protects from corruption, not from a foreign
     * writer).
     *
     * @param slots the values.
     * @throws IllegalArgumentException when they are inconsistent.
     */
    public abstract void check(long[] slots);

    /**
     * @param slots resolved parameters.
     * @return bytes of table the kind needs, a positive multiple of 64, including any state words of its own.
     */
    public abstract long tableBytes(long[] slots);

    /**
     * Builds the kind's algorithm. A kind keeps all its state in its table region (so it can serve as a subfilter
     * of the queuing construction); only a top-level filter also gets the header's kind-state words, which the
     * queuing construction uses for its rotation counter and newest subfilter.
     *
     * @param slots       resolved parameters.
     * @param region      the kind's region of the table, {@link #tableBytes} long, zero when the filter is new.
     * @param headerState {@link #HEADER_STATE_WORDS} words of the header's state region, zero when the filter is
     *                    new; null for a subfilter.
     * @return the algorithm over that region.
     */
    public abstract FilterCore core(long[] slots, MappedWords region, MappedWords headerState);

    /**
     * Builds the kind's algorithm for a top-level filter whose window of time (if its parameters give one) reads the
     * given clock when a call gives no time. Kinds without a window of time ignore the clock.
     *
     * @param slots       resolved parameters.
     * @param region      the kind's region of the table.
     * @param headerState the header's kind-state words.
     * @param wallClock   the wall clock (or a test's): read only by a filter whose window of time follows it.
     * @return the algorithm over that region.
     */
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState,
        final FilterClock wallClock)
    {
        return core(slots, region, headerState);
    }

    /**
     * Checks a table whose file cannot vouch for it (not closed cleanly, or of a format without a table checksum),
     * reading only, before {@link FilterCore#recover()}. A kind whose cells have invariants (bits that must be
     * zero, counters with bounds) checks them, tolerating what a crash mid-update leaves and recover() repairs.
     * The default accepts any bytes: for kinds where every bit pattern is a valid state.
     *
     * @param slots       resolved parameters.
     * @param region      the kind's region of the table.
     * @param headerState the header's kind-state words, or null for a subfilter.
     * @throws IllegalArgumentException naming the first violation: where, and what.
     */
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        // every bit pattern is a valid state of this kind
    }

    /**
     * @param slots resolved parameters.
     * @return facts derived from the parameters worth showing (e.g. distinct fingerprints), by name.
     */
    public Map<String, String> describe(final long[] slots)
    {
        return Map.of();
    }

    /**
     * @param name a parameter name.
     * @return its slot index, or -1 when the kind has no such parameter.
     */
    public final int slotOf(final String name)
    {
        final List<ParamDef> params = params();
        for (int i = 0; i < params.size(); i++)
        {
            if (params.get(i).name().equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Refuses a given parameter the kind does not take as an option, naming the ones it does.
     *
     * @param given the parameters a user gave.
     * @throws NotAParameterException naming the first unknown parameter and the kind's options.
     */
    public final void checkOptions(final GivenParameters given)
    {
        for (final String name : given.names())
        {
            final int slot = slotOf(name);
            if (slot < 0 || !params().get(slot).option())
            {
                final List<String> takes = new java.util.ArrayList<>();
                for (final ParamDef param : params())
                {
                    if (param.option())
                    {
                        takes.add(param.name());
                    }
                }
                throw new NotAParameterException(name, name(), false, takes);
            }
        }
    }

    /**
     * @param condition what must hold.
     * @param message   why, when it does not.
     * @throws IllegalArgumentException with the message.
     */
    protected static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Rounds a byte count up to whole 64-byte cache lines.
     *
     * @param bytes a count of bytes.
     * @return the count rounded up to a multiple of 64.
     */
    protected static long cacheLines(final long bytes)
    {
        return ((bytes + 63) / 64) * 64;
    }
}
