package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.KindParameter;
import io.ddf.engine.tune.CapacitySizing;
import io.ddf.engine.tune.QuotientSizing;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.RespError;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * BF.RESERVE's capacity, error rate and options turned into a filter, or refused: what the daemon's capacity means
 * (README "Coming from RedisBloom").
 * <ul>
 *   <li>No KIND and KIND fifo-bloom, bloom, qht: the tuner sizes it ({@link CapacitySizing}: at most 0.1 % forgotten
 *       at the capacity, FPR at most the error rate; no KIND takes the least memory among the kinds that keep that
 *       past the capacity too). With their size parameters (memory-bits, buckets, fingerprint-bits,
 *       hash-functions, capacity, as {@code ddf tune} prints them) the shape is the one given, and
 *       the line is refused unless that shape keeps the capacity and error rate by the same models.</li>
 *   <li>KIND qhtd, qqhtd: capacity and error rate size it by {@link Sizing} (no model of their state after N
 *       insertions; they forget a few percent at the capacity, see the README); size parameters are refused.
 *       Any other KIND is refused: capacity and error rate do not size it.</li>
 *   <li>NONSCALING: accepted; every ddf filter keeps the memory it was reserved with (RedisBloom's meaning of
 *       NONSCALING), and past its capacity forgets the oldest where RedisBloom's would answer "non scaling filter
 *       is full". EXPANSION 0 means NONSCALING (as in RedisBloom). EXPANSION n ≥ 1 is refused: a ddf filter does
 *       not grow. EXPANSION beside NONSCALING, a bad or out-of-range expansion: RedisBloom's errors.</li>
 *   <li>SEED n, KEYED, and the kind's other parameters by name (e.g. generations, max-kicks).</li>
 * </ul>
 */
public final class ReserveOptions
{
    /** RedisBloom's error for EXPANSION beside NONSCALING (no ERR prefix in RedisBloom either). */
    public static final String CANNOT_EXPAND = "Nonscaling filters cannot expand";
    /** RedisBloom's error for a non-numeric expansion. */
    static final String BAD_EXPANSION = "ERR bad expansion";
    /** RedisBloom's error for an expansion outside [0, 32768]. */
    static final String EXPANSION_RANGE = "ERR expansion must be in the range [0, 32768]";
    /** ddf's refusal of a growth factor. */
    public static final String NO_EXPANSION = "ERR ddf filters do not expand: past its capacity a filter forgets its " +
        "oldest items in the same memory (reserve the capacity you need; NONSCALING or EXPANSION 0 are accepted)";
    private static final long MAX_EXPANSION = 32768;
    /** Kinds whose size capacity and error rate decide. */
    private static final Set<FilterKind> SIZED = Set.of(FilterKind.FIFO_BLOOM, FilterKind.BLOOM, FilterKind.QHT,
        FilterKind.QHTD, FilterKind.QQHTD);
    /** Parameters that set a size, refused beside capacity and error rate. */
    private static final Set<String> SIZE_PARAMS = Set.of("memory-bits", "rows", "buckets", "fingerprint-bits",
        "hash-functions", "capacity", "target-fpr");

    private ReserveOptions()
    {
    }

    /**
     * @param options   BF.RESERVE's arguments after the capacity.
     * @param capacity  the capacity, at least 1.
     * @param errorRate the error rate, in (0, 1).
     * @return the builder, its parameters checked.
     * @throws RespError the reply for a refused combination.
     */
    static FilterBuilder builder(final List<String> options, final long capacity, final double errorRate)
    {
        FilterKind kind = FilterKind.FIFO_BLOOM;
        Long seed = null;
        boolean keyed = false;
        boolean nonScaling = false;
        Long expansion = null;
        final List<Map.Entry<String, String>> params = new ArrayList<>();
        for (int i = 0; i < options.size(); i++)
        {
            final String option = options.get(i).toLowerCase(Locale.ROOT);
            switch (option)
            {
                case "nonscaling" -> nonScaling = true;
                case "keyed" -> keyed = true;
                default ->
                {
                    if (i + 1 >= options.size())
                    {
                        throw new RespError(option.equals("expansion") ? "ERR no expansion" :
                            "ERR syntax error: " + option + " needs a value");
                    }
                    final String value = options.get(++i);
                    switch (option)
                    {
                        case "kind" -> kind = kind(value);
                        case "seed" -> seed = integer(value, "ERR bad seed");
                        case "expansion" -> expansion = integer(value, BAD_EXPANSION);
                        default -> params.add(Map.entry(option, value));
                    }
                }
            }
        }
        if (expansion != null)
        {
            if (nonScaling && expansion != 0)
            {
                throw new RespError(CANNOT_EXPAND);
            }
            if (expansion < 0 || expansion > MAX_EXPANSION)
            {
                throw new RespError(EXPANSION_RANGE);
            }
            if (expansion != 0)
            {
                throw new RespError(NO_EXPANSION);
            }
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
            if (seed != null)
            {
                builder.seed(seed);
            }
            builder.keyed(keyed);
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
                case FIFO_BLOOM -> Filters.builder(kind).param("capacity", capacity).param("target-fpr", errorRate);
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

    /**
     * @param word a BF.RESERVE argument.
     * @return whether it names a parameter of some ddf kind (so the command asks for a ddf filter).
     */
    static boolean isParameterName(final String word)
    {
        return paramDef(word.toLowerCase(java.util.Locale.ROOT)) != null;
    }

    private static KindParameter paramDef(final String name)
    {
        final Map.Entry<KindParameter, List<FilterKind>> option = FilterKind.options().get(name);
        return option == null ? null : option.getKey();
    }

    private static long integer(final String text, final String error)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException e)
        {
            throw new RespError(error);
        }
    }
}
