package io.ddf.engine;

import io.ddf.engine.bloom.A2Definition;
import io.ddf.engine.bloom.BdbfDefinition;
import io.ddf.engine.bloom.BloomDefinition;
import io.ddf.engine.bloom.BsbfDefinition;
import io.ddf.engine.bloom.BsbfsdDefinition;
import io.ddf.engine.bloom.RlbsbfDefinition;
import io.ddf.engine.bloom.RsbfDefinition;
import io.ddf.engine.bloom.StableBloomDefinition;
import io.ddf.engine.cuckoo.CuckooDefinition;
import io.ddf.engine.dsqf.DynamicSqfDefinition;
import io.ddf.engine.window.CshfDefinition;
import io.ddf.engine.window.ExactWindowDefinition;
import io.ddf.engine.window.FifoBloomDefinition;
import io.ddf.engine.window.QueueDefinition;
import io.ddf.engine.window.ShfDefinition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The definition of every filter kind. */
public final class FilterKinds
{
    private static final Map<FilterKind, KindDefinition> DEFINITIONS = new EnumMap<>(FilterKind.class);

    static
    {
        register(new QuotientDefinition(FilterKind.QHT));
        register(new QuotientDefinition(FilterKind.QHTD));
        register(new QuotientDefinition(FilterKind.QQHTD));
        register(new QuotientDefinition(FilterKind.SQF));
        register(new DynamicSqfDefinition());
        register(new CuckooDefinition());
        register(new BloomDefinition());
        register(new StableBloomDefinition());
        register(new RsbfDefinition());
        register(new BsbfDefinition());
        register(new BsbfsdDefinition());
        register(new RlbsbfDefinition());
        register(new A2Definition());
        register(new BdbfDefinition());
        register(new FifoBloomDefinition());
        register(new ExactWindowDefinition());
        register(new ShfDefinition());
        register(new CshfDefinition());
        register(new QueueDefinition());
        for (final FilterKind kind : FilterKind.values())
        {
            if (!DEFINITIONS.containsKey(kind))
            {
                throw new IllegalStateException("no definition for " + kind);
            }
        }
    }

    private FilterKinds()
    {
    }

    private static void register(final KindDefinition definition)
    {
        if (definition.params().size() > KindDefinition.MAX_SLOTS && definition.kind() != FilterKind.QUEUE)
        {
            throw new IllegalStateException(definition.kind() + " has more than " + KindDefinition.MAX_SLOTS +
                " parameters");
        }
        DEFINITIONS.put(definition.kind(), definition);
    }

    /**
     * @param kind a kind.
     * @return its definition.
     */
    public static KindDefinition definition(final FilterKind kind)
    {
        return DEFINITIONS.get(kind);
    }

    /**
     * Every user-settable parameter of every kind, by name, with the kinds that take it: what a command line
     * offers as options.
     *
     * @return name → (a definition of the parameter, the kinds that take it), in a stable order.
     */
    public static Map<String, Map.Entry<ParamDef, List<FilterKind>>> options()
    {
        final Map<String, Map.Entry<ParamDef, List<FilterKind>>> options = new LinkedHashMap<>();
        for (final KindDefinition definition : DEFINITIONS.values())
        {
            for (final ParamDef param : definition.params())
            {
                if (param.option())
                {
                    options.computeIfAbsent(param.name(), n -> Map.entry(param, new ArrayList<>()))
                        .getValue().add(definition.kind());
                }
            }
        }
        final Map<String, Map.Entry<ParamDef, List<FilterKind>>> frozen = new LinkedHashMap<>();
        options.forEach((name, entry) ->
            frozen.put(name, Map.entry(entry.getKey(), Collections.unmodifiableList(entry.getValue()))));
        return Collections.unmodifiableMap(frozen);
    }
}
