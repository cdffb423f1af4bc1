package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.KindParameter;
import io.ddf.engine.tune.CapacitySizing;
import io.ddf.engine.tune.QuotientSizing;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.redisbloom.ReserveOptions;
import io.ddf.ingest.redisbloom.ReserveRequest;
import io.ddf.ingest.resp.RespError;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A ddf fixed-size filter made for BF.RESERVE's capacity, error rate and ddf's options ({@link ReserveRequest} and its
 * {@link ReserveOptions}, parsed once for every layout), or for BF.INSERT's, or refused: what the daemon's capacity
 * means (docs/from-redisbloom.md).
 * <ul>
 *   <li>No KIND and KIND fifo-bloom, bloom, qht: the tuner sizes it ({@link CapacitySizing}: at most 0.1 % forgotten
 *       at the capacity, FPR at most the error rate; no KIND takes the least memory among the kinds that keep that
 *       past the capacity too). With their size parameters (memory-bits, buckets, fingerprint-bits,
 *       hash-functions, capacity, as {@code ddf tune} prints them) the shape is the one given, and
 *       the request is refused unless that shape keeps the capacity and error rate by the same models.</li>
 *   <li>KIND qhtd, qqhtd: capacity and error rate size it by {@link QuotientSizing} (no model of their state after N
 *       insertions; they forget a few percent at the capacity, see docs/capacity.md); size parameters are refused.
 *       Any other KIND is refused: capacity and error rate do not size it.</li>
 *   <li>NONSCALING: accepted; every ddf filter keeps the memory it was reserved with (RedisBloom's meaning of
 *       NONSCALING), and past its capacity forgets the oldest where RedisBloom's would answer "non scaling filter
 *       is full". EXPANSION 0 means NONSCALING (as in RedisBloom); any other expansion is refused
 *       ({@link #NO_EXPANSION}): a ddf filter does not grow.</li>
 *   <li>SEED n, KEYED, and the kind's other parameters by name (e.g. generations, max-kicks).</li>
 *   <li>WINDOW seconds [SLICES L]: a fifo-bloom with a window of time (no KIND, or KIND fifo-bloom), or the aged
 *       cuckoo table (KIND aged-cuckoo, which needs WINDOW; any other KIND is refused): capacity is the most new items
 *       within a window for which each item is remembered for the window after its first add, and forgotten by
 *       window + window / L (L default 2 for fifo-bloom, 16 for aged-cuckoo, or what its stamps allow: 14 at 1 %);
 *       fifo-bloom's error rate holds whatever comes, aged-cuckoo's at the promised rate (it takes ~18 bits an item
 *       at 1 % where fifo-bloom takes 20-23: bench/README.md, "Window memory vs APBF and two Blooms"). It runs on the
 *       daemon's clock: the commands carry no times, so event time (time-source 1) is refused, and GENERATIONS (2 x
 *       SLICES with a window).</li>
 * </ul>
 */
public final class FixedSizeReserve
{
    /** ddf's refusal of a growth factor. */
    public static final String NO_EXPANSION = "ERR ddf filters do not expand: past its capacity a filter forgets its " +
        "oldest items in the same memory (reserve the capacity you need; NONSCALING or EXPANSION 0 are accepted)";
    /** Kinds whose size capacity and error rate decide. */
    private static final Set<FilterKind> SIZED = Set.of(FilterKind.FIFO_BLOOM, FilterKind.BLOOM, FilterKind.QHT,
        FilterKind.QHTD, FilterKind.QQHTD, FilterKind.AGED_CUCKOO);
    /** Parameters that set a size, refused beside capacity and error rate. */
    private static final Set<String> SIZE_PARAMS = Set.of("memory-bits", "rows", "buckets", "fingerprint-bits",
        "hash-functions", "capacity", "target-fpr");

    private FixedSizeReserve()
    {
    }

    /**
     * @param request a BF.RESERVE for one of ddf's fixed-size kinds.
     * @return the builder, its parameters checked.
     * @throws RespError the reply for a refused combination.
     */
    static FilterBuilder builder(final ReserveRequest request)
    {
        if (request.ddf().fixedSize() && !request.ignored().isEmpty())
        {
            // RedisBloom ignores a word it does not know; a request in ddf's own words gets its mistake named
            throw new RespError("ERR unknown parameter '" + request.ignored().get(0) + "'");
        }
        return builder(request.capacity(), request.errorRate(), request.expansion(), request.ddf());
    }

    /**
     * @param capacity  the capacity, at least 1.
     * @param errorRate the error rate, in (0, 1).
     * @param expansion the expansion given, or null.
     * @param ddf       ddf's own options.
     * @return the builder, its parameters checked.
     * @throws RespError the reply for a refused combination.
     */
    static FilterBuilder builder(final long capacity, final double errorRate, final Long expansion,
        final ReserveOptions ddf)
    {
        if (expansion != null && expansion != 0)
        {
            throw new RespError(NO_EXPANSION);
        }
        final FilterKind kind = ddf.kind() == null ? FilterKind.FIFO_BLOOM : kind(ddf.kind());
        final List<Map.Entry<String, String>> params = ddf.parameters();
        if (ddf.window() != null)
        {
            windowed(kind, params);
        }
        else if (kind == FilterKind.AGED_CUCKOO)
        {
            throw new RespError("ERR KIND aged-cuckoo keeps a window of time: give WINDOW seconds [SLICES L]");
        }
        if (!SIZED.contains(kind))
        {
            throw new RespError("ERR capacity and error rate do not size KIND " + kind.cliName() + " (they size " +
                "fifo-bloom, bloom, qht, qhtd and qqhtd); make its file with 'ddf pipe --filter " + kind.cliName() +
                " --file DATA_DIR/KEY.ddf' and its parameters, and the daemon serves it from the next start");
        }
        final boolean shaped = CapacitySizing.SIZED.contains(kind) && params.stream().anyMatch(p ->
        {
            final KindParameter def = paramDef(p.getKey());
            return def != null && SIZE_PARAMS.contains(def.name());
        });
        final FilterBuilder builder = shaped ? Filters.builder(kind) : sized(kind, capacity, errorRate);
        for (final Map.Entry<String, String> param : params)
        {
            final KindParameter def = paramDef(param.getKey());
            if (def == null)
            {
                throw new RespError("ERR unknown parameter '" + param.getKey() + "'");
            }
            if (SIZE_PARAMS.contains(def.name()) && !shaped)
            {
                throw new RespError("ERR capacity and error rate size the filter; " + def.name() +
                    " cannot be given beside them");
            }
            try
            {
                if (def.real())
                {
                    builder.param(def.name(), Double.parseDouble(param.getValue()));
                }
                else
                {
                    builder.param(def.name(), Long.parseLong(param.getValue()));
                }
            }
            catch (final NumberFormatException e)
            {
                throw new RespError("ERR bad value for " + def.name() + ": '" + param.getValue() + "'");
            }
        }
        try
        {
            if (ddf.seed() != null)
            {
                builder.seed(ddf.seed());
            }
            builder.keyed(ddf.keyed());
            if (ddf.window() != null)
            {
                builder.window(ddf.window());
                if (ddf.slices() != null)
                {
                    builder.subfilters(Math.toIntExact(Math.min(ddf.slices(), Integer.MAX_VALUE)));
                }
            }
            if (shaped)
            {
                keeps(builder, kind, params, capacity, errorRate);
            }
            builder.parameters();
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + OneLine.of(e));
        }
        return builder;
    }

    /** What a window of time refuses beside it: a kind without one, GENERATIONS, event time. */
    private static void windowed(final FilterKind kind, final List<Map.Entry<String, String>> params)
    {
        if (!kind.keepsTimeWindow())
        {
            throw new RespError("ERR WINDOW is a window of time, which fifo-bloom and aged-cuckoo keep (leave KIND " +
                "out, or KIND fifo-bloom or aged-cuckoo); KIND " + kind.cliName() + " has none: it forgets by count, " +
                "if at all");
        }
        for (final Map.Entry<String, String> param : params)
        {
            final KindParameter def = paramDef(param.getKey());
            final String name = def == null ? param.getKey() : def.name();
            if (name.equals("generations"))
            {
                throw new RespError("ERR GENERATIONS goes without WINDOW: a window of time keeps 2 x SLICES " +
                    "generations, so give SLICES L (an item is forgotten by window + window / L)");
            }
            if (name.equals("time-source") || name.equals("window-ms") || name.equals("window"))
            {
                throw new RespError("ERR " + name + " cannot be given beside WINDOW: the window is WINDOW's, and " +
                    "it runs on the daemon's clock (its commands carry no times)");
            }
        }
    }

    /** A shape given by its size parameters: refused unless its model keeps the capacity and error rate. */
    private static void keeps(final FilterBuilder builder, final FilterKind kind,
        final List<Map.Entry<String, String>> params, final long capacity, final double errorRate)
    {
        if (kind == FilterKind.FIFO_BLOOM && params.stream().noneMatch(p -> p.getKey().equals("target-fpr")))
        {
            builder.param("target-fpr", errorRate); // with memory-bits given it only labels the filter
        }
        if (kind == FilterKind.FIFO_BLOOM && params.stream().noneMatch(p -> p.getKey().equals("capacity")))
        {
            builder.param("capacity", capacity);
        }
        CapacitySizing.refusal(builder.parameters(), capacity, errorRate).ifPresent(reason ->
        {
            throw new RespError("ERR " + reason);
        });
    }

    /** The kind sized for the capacity and error rate. */
    private static FilterBuilder sized(final FilterKind kind, final long capacity, final double errorRate)
    {
        try
        {
            return switch (kind)
            {
                // fifo-bloom sizes itself by the same model (FifoBloomModel), so that a GENERATIONS option resizes it
                case FIFO_BLOOM, AGED_CUCKOO -> Filters.builder(kind).param("capacity", capacity)
                    .param("target-fpr", errorRate);
                case BLOOM, QHT -> CapacitySizing.forCapacity(capacity, errorRate, kind).builder();
                default -> QuotientSizing.apply(Filters.builder(kind), capacity, errorRate);
            };
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + OneLine.of(e));
        }
    }

    private static FilterKind kind(final String name)
    {
        try
        {
            return FilterKind.fromName(name);
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + OneLine.of(e));
        }
    }

    private static KindParameter paramDef(final String name)
    {
        final Map.Entry<KindParameter, List<FilterKind>> option = FilterKind.options().get(name);
        return option == null ? null : option.getKey();
    }
}
