package io.ddf.engine;

import io.ddf.engine.internal.FilterFactory;
import io.ddf.engine.internal.FilterKinds;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.NotAParameterException;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;

/**
 * Builds a new filter, or opens an existing one and checks it was made with the parameters asked for.
 *
 * <p>Parameters are named as on the command line ({@code memory-bits}, {@code buckets}, ...); each kind's
 * {@link KindDefinition} says which it takes, applies defaults and refuses nonsensical combinations with a message
 * that says why. Giving {@link #subfilters} (with {@link #window}) wraps the kind in the queuing construction
 * (sliding-window paper §5): L subfilters of w / L insertions each, sharing the memory.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class FilterBuilder
{
    /** The builder's names: its method where it has one ({@code .rows(n)}), else {@code param("name", v)}. */
    private static final Map<String, String> METHODS = Map.of("memory-bits", ".memoryBits(n)", "rows", ".rows(n)",
        "buckets", ".buckets(n)", "fingerprint-bits", ".fingerprintBits(n)", "remainder-bits", ".remainderBits(n)",
        "reduced-bits", ".reducedBits(n)", "window", ".window(w)", "subfilters", ".subfilters(L)");

    private final FilterKind kind;
    private final GivenParameters given = new GivenParameters();
    private Long seed;
    private boolean keyed;
    private boolean singleWriter;
    private SyncPolicy sync = SyncPolicy.DEFAULT;
    private io.ddf.persistence.log.ChangeLog changeLog;
    private Path file;
    /** The wall clock a filter with a window of time reads, or null for the engine's (see {@link #clock}). */
    private java.time.InstantSource clock;

    FilterBuilder(final FilterKind kind)
    {
        if (kind == null || kind == FilterKind.QUEUE)
        {
            throw new IllegalArgumentException("give the kind to build; the queuing construction is chosen with " +
                "subfilters and window");
        }
        this.kind = kind;
    }

    /**
     * @param name  a parameter name, as on the command line without dashes.
     * @param value its value.
     * @return this.
     */
    public FilterBuilder param(final String name, final long value)
    {
        given.put(name, value);
        return this;
    }

    /**
     * @param name  a parameter name, as on the command line without dashes.
     * @param value its value.
     * @return this.
     */
    public FilterBuilder param(final String name, final double value)
    {
        given.put(name, value);
        return this;
    }

    /**
     * @param memoryBits total memory M in bits.
     * @return this.
     */
    public FilterBuilder memoryBits(final long memoryBits)
    {
        return param("memory-bits", memoryBits);
    }

    /**
     * @param rows number of rows N of a quotient filter, instead of {@link #memoryBits}.
     * @return this.
     */
    public FilterBuilder rows(final long rows)
    {
        return param("rows", rows);
    }

    /**
     * @param buckets cells per row k (quotient filters), or per bucket (cuckoo).
     * @return this.
     */
    public FilterBuilder buckets(final int buckets)
    {
        return param("buckets", buckets);
    }

    /**
     * @param fingerprintBits bits per fingerprint s.
     * @return this.
     */
    public FilterBuilder fingerprintBits(final int fingerprintBits)
    {
        return param("fingerprint-bits", fingerprintBits);
    }

    /**
     * @param remainderBits remainder bits r (SQF).
     * @return this.
     */
    public FilterBuilder remainderBits(final int remainderBits)
    {
        return param("remainder-bits", remainderBits);
    }

    /**
     * @param reducedBits reduced-remainder bits r' (SQF), fewer than r.
     * @return this.
     */
    public FilterBuilder reducedBits(final int reducedBits)
    {
        return param("reduced-bits", reducedBits);
    }

    /**
     * @param window the sliding window w, in elements, for windowed kinds and the queuing construction (with
     *               {@link #subfilters}); a window of time is {@link #window(java.time.Duration)}.
     * @return this.
     */
    public FilterBuilder window(final long window)
    {
        return param("window", window);
    }

    /**
     * A window of time, for {@link FilterKind#FIFO_BLOOM} (and {@link FilterKind#AGED_CUCKOO}, whose generations share
     * one table and whose slices default to 16, or as many as its error rate's stamps allow): each element is remembered for {@code window} after it is
     * first added, as long as no more than the capacity ({@code param("capacity", n)}, default 10^6) of new elements
     * come within a window, and forgotten by {@code window + window / L} ({@link TimeWindow} states the promise). With
     * {@link #subfilters}{@code (L)} the window's slices (default 2): the filter keeps 2 L generations of capacity / L
     * new elements each, and a generation turns every {@code window / L} or capacity / L new elements, whichever
     * comes first. The time is the wall clock unless {@link #eventTime()}.
     *
     * @param window at least 1 ms, whole milliseconds.
     * @return this.
     */
    public FilterBuilder window(final java.time.Duration window)
    {
        if (window.isNegative() || window.isZero() || window.toNanos() % 1_000_000 != 0)
        {
            throw new IllegalArgumentException("window(Duration): a window of time is a positive whole number of " +
                "milliseconds, got " + window);
        }
        return param("window-ms", window.toMillis());
    }

    /**
     * The filter's time is its elements', given with each ({@link DuplicateFilter#stream(long, long)}: Kafka record
     * timestamps, a backfill's event times) instead of the wall clock: a call without a time leaves the filter's
     * time as it is, and an open applies no time. Needs {@link #window(java.time.Duration)}.
     *
     * @return this.
     */
    public FilterBuilder eventTime()
    {
        return param("time-source", 1L);
    }

    /**
     * The wall clock a filter with a window of time reads when a call gives no time, and its open applies (tests,
     * simulations). Without it the engine reads {@code System.currentTimeMillis()} through a ticker refreshed every
     * millisecond (a field read per element). Not kept in the file; ignored by a filter without a window of time.
     *
     * @param clock epoch milliseconds through {@link java.time.InstantSource#millis()}.
     * @return this.
     */
    public FilterBuilder clock(final java.time.InstantSource clock)
    {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * @param subfilters L: wraps the kind in the queuing construction with L subfilters of window / L insertions; with
     *                   a window of time ({@link #window(java.time.Duration)}), its slices.
     * @return this.
     */
    public FilterBuilder subfilters(final int subfilters)
    {
        return param("subfilters", subfilters);
    }

    /**
     * @param seed hash seed; without one a random seed is drawn at creation and kept in the header.
     * @return this.
     */
    public FilterBuilder seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /**
     * @param keyed hash with SipHash-2-4 under a secret 128-bit key drawn at creation, for adversarial streams
     *              (QHT paper §7); the file is then created owner-only.
     * @return this.
     */
    public FilterBuilder keyed(final boolean keyed)
    {
        this.keyed = keyed;
        return this;
    }

    /**
     * Single-writer mode: the caller promises that one thread at a time updates each partition of the filter (each
     * row of a quotient filter, see {@link DuplicateFilter#partitioned()}; the whole filter for a kind that is not
     * partitioned). Updates are then plain loads and release (ordered) stores, and the counters are written by
     * their owning thread without a locked instruction: nothing on the hot path is a locked instruction.
     *
     * <p>Uses: one thread streaming into the filter ({@code ddf pipe}); a pipeline whose insertion threads own
     * disjoint partitions, each streaming only the elements of its own rows. Handing a partition from one thread
     * to another needs a happens-before edge (a queue, a Disruptor sequence, {@code Thread.join}). Two threads
     * updating the same partition at once is a misuse: it may lose updates (an element judged UNSEEN twice), and a
     * kind that checks its own invariants may refuse with an {@link IllegalStateException} (the exact window, whose
     * table and ring a sequence lock guards in shared mode); it never hangs, and the file still reopens. The
     * counters stay exact: each thread counts in a stripe of its own. Other processes are kept out by the file's
     * lock, as in shared mode. Crash safety is the same as shared mode's: a verdict returned has its row already
     * stored to the mapping.
     *
     * @return this.
     */
    public FilterBuilder singleWriter()
    {
        this.singleWriter = true;
        return this;
    }

    /**
     * Writes the filter through a given change log (the daemon's data directory's) instead of one of its own: its
     * changes are recorded there, the caller forces the log by its policy and checkpoints the filter
     * ({@link DuplicateFilter#checkpoint()}). Needs a file ({@link #file(Path)}).
     *
     * @param changeLog the log.
     * @return this builder.
     */
    public FilterBuilder log(final io.ddf.persistence.log.ChangeLog changeLog)
    {
        this.changeLog = java.util.Objects.requireNonNull(changeLog, "changeLog");
        return this;
    }

    /**
     * @param policy when the filter's changes reach the storage device ({@link SyncPolicy#EVERYSEC} unless given);
     *               ignored for an anonymous file, which is gone at close.
     * @return this.
     */
    public FilterBuilder sync(final SyncPolicy policy)
    {
        this.sync = java.util.Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * @param file where the state lives; null (the default) for an anonymous file removed on close.
     * @return this.
     */
    public FilterBuilder file(final Path file)
    {
        this.file = file;
        return this;
    }

    /**
     * Resolves and checks the parameters.
     *
     * @return the parameters a new filter would have (with seed 0 when no seed was given).
     * @throws IllegalArgumentException saying which parameter is wrong and why.
     */
    public FilterParameters parameters()
    {
        return resolve(seed == null ? 0L : seed);
    }

    /**
     * Creates a new filter file (or an anonymous one) with these parameters.
     *
     * @return the filter.
     * @throws IllegalArgumentException for bad parameters.
     * @throws FilterFileException      when the file exists or cannot be created.
     */
    public DuplicateFilter create()
    {
        final SecureRandom random = new SecureRandom();
        final FilterParameters params = resolve(seed != null ? seed : random.nextLong());
        byte[] key = null;
        if (keyed)
        {
            key = new byte[FilterFileSpec.KEY_LENGTH];
            random.nextBytes(key);
        }
        final FilterFileSpec spec = new FilterFileSpec(
            params.kind().code(), params.hashAlgorithm().code(), params.seed(), key, params.slots(),
            params.tableBytes());
        if (changeLog != null)
        {
            if (file == null)
            {
                throw new IllegalStateException("a filter written through a change log needs a file: .file(path)");
            }
            return MappedDuplicateFilter.of(
                FilterFactory.create(file, spec, params.definition(), params.slots(), singleWriter, changeLog,
                    wallClock()));
        }
        return MappedDuplicateFilter.of(
            FilterFactory.create(file, spec, params.definition(), params.slots(), singleWriter, sync.mode(),
            wallClock()));
    }

    /**
     * Opens the file if it exists (as {@link Filters#open(Path, SyncPolicy)} does, with this builder's policy and
     * mode), checking that every parameter set on this builder matches its header; creates it otherwise. What a
     * restarting application calls: the first start creates the file, the next ones find what it remembers.
     *
     * @return the filter.
     * @throws FilterFileException with reason PARAMETER_MISMATCH naming the first parameter that differs.
     */
    public DuplicateFilter openOrCreate()
    {
        if (file == null || !Files.exists(file))
        {
            return create();
        }
        // the header read first, without opening for writing: a refused open leaves the file as it was, even under a
        // change log (whose binding fields an open for writing would set)
        checkMatches(FilterParameters.ofHeader(io.ddf.persistence.FilterFile.inspect(file).spec(), file));
        final DuplicateFilter filter = MappedDuplicateFilter.of(changeLog != null ?
            FilterFactory.open(file, singleWriter, changeLog, wallClock()) :
            FilterFactory.open(file, singleWriter, sync.mode(), wallClock()));
        try
        {
            checkMatches(filter.parameters());
            return filter;
        }
        catch (final RuntimeException e)
        {
            filter.close();
            throw e;
        }
    }

    /**
     * @param actual parameters read from a file.
     * @throws FilterFileException naming the first parameter set on this builder that differs.
     */
    void checkMatches(final FilterParameters actual)
    {
        final GivenParameters given = WindowOfTime.forKind(kind, this.given);
        final Map<String, String> values = actual.toMap();
        final String actualKind = actual.kind() == FilterKind.QUEUE ?
            FilterKind.fromCode(FilterKinds.innerCode(actual.slots())).cliName() : actual.kind().cliName();
        mismatch("filter", kind.cliName(), actualKind);
        if (given.has("subfilters") != (actual.kind() == FilterKind.QUEUE))
        {
            mismatch("subfilters", given.has("subfilters") ? given.get("subfilters") : "none",
                values.getOrDefault("subfilters", "none"));
        }
        for (final String name : given.names())
        {
            final Number asked = given.get(name);
            final String value = values.get(name);
            if (value == null)
            {
                mismatch(name, asked, "none");
            }
            else if (asked instanceof Double || value.contains(".") || value.contains("E"))
            {
                if (Double.parseDouble(value) != asked.doubleValue())
                {
                    mismatch(name, asked, value);
                }
            }
            else
            {
                mismatch(name, asked, value);
            }
        }
        if (seed != null && !actual.keyed())
        {
            mismatch("seed", seed, actual.seed());
        }
        if (keyed && !actual.keyed())
        {
            mismatch("keyed", "true", "false");
        }
    }

    private void mismatch(final String name, final Object asked, final Object actual)
    {
        if (!asked.toString().equals(actual.toString()))
        {
            throw new FilterFileException(
                FilterFileException.Reason.PARAMETER_MISMATCH, file,
                "was made with " + name + "=" + actual + ", not " + name + "=" + asked);
        }
    }

    private io.ddf.engine.spi.FilterClock wallClock()
    {
        final java.time.InstantSource source = clock;
        return source == null ? null : () -> Math.max(0, source.millis());
    }

    private FilterParameters resolve(final long seedValue)
    {
        try
        {
            return resolveNamed(seedValue);
        }
        catch (final NotAParameterException e)
        {
            throw new UnknownParameterException(javaMessage(e), e.parameter(), e.getMessage(), e);
        }
    }

    private static String javaName(final String parameter)
    {
        return METHODS.getOrDefault(parameter, "param(\"" + parameter + "\", v)");
    }

    /** The refusal in the builder's words: what was given, what the kind takes, how a window is made. */
    private static String javaMessage(final NotAParameterException e)
    {
        final String named = METHODS.containsKey(e.parameter()) ? METHODS.get(e.parameter()) :
            "param(\"" + e.parameter() + "\")";
        final String over = e.queue() ? ".window(w).subfilters(L) over " + e.kind() : e.kind();
        final StringBuilder takes = new StringBuilder();
        for (final String name : e.takes())
        {
            takes.append(takes.length() == 0 ? "" : ", ").append(javaName(name));
        }
        final String refusal = named + " is not a parameter of " + over + ": it takes " +
            (takes.length() == 0 ? "none" : takes);
        return e.parameter().equals("window") && !e.queue() ? refusal + ". " + e.kind() + " has no window of its " +
            "own: .window(w) needs .subfilters(L), which makes a sliding-window filter of L " + e.kind() +
            " subfilters of w / L elements each (the queuing construction), e.g. .window(1_000_000).subfilters(8)" :
            refusal;
    }

    private FilterParameters resolveNamed(final long seedValue)
    {
        final KindDefinition definition;
        final long[] slots;
        final GivenParameters given = WindowOfTime.forKind(kind, this.given);
        if (given.has("subfilters"))
        {
            definition = FilterKinds.queue();
            slots = FilterKinds.resolveQueue(kind.definition(), copyOf(given));
        }
        else
        {
            definition = kind.definition();
            final GivenParameters forDefinition = copyOf(given);
            definition.checkOptions(forDefinition);
            slots = definition.resolve(forDefinition);
        }
        return new FilterParameters(definition, slots,
            keyed ? HashAlgorithm.SIPHASH24_KEYED : HashAlgorithm.XXH3, seedValue);
    }

    private static GivenParameters copyOf(final GivenParameters values)
    {
        final GivenParameters copy = new GivenParameters();
        for (final String name : values.names())
        {
            final Number value = values.get(name);
            if (value instanceof Double)
            {
                copy.put(name, value.doubleValue());
            }
            else
            {
                copy.put(name, value.longValue());
            }
        }
        return copy;
    }
}
