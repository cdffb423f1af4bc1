package io.ddf.engine.internal;

import io.ddf.engine.bloom.A2Definition;
import io.ddf.engine.bloom.BdbfDefinition;
import io.ddf.engine.bloom.BloomDefinition;
import io.ddf.engine.bloom.BsbfDefinition;
import io.ddf.engine.bloom.BsbfsdDefinition;
import io.ddf.engine.bloom.RlbsbfDefinition;
import io.ddf.engine.bloom.RsbfDefinition;
import io.ddf.engine.bloom.StableBloomDefinition;
import io.ddf.engine.composite.AgedCuckooDefinition;
import io.ddf.engine.composite.FifoBloomDefinition;
import io.ddf.engine.cuckoo.CuckooDefinition;
import io.ddf.engine.quotient.DynamicSqfDefinition;
import io.ddf.engine.quotient.QuotientDefinition;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.window.CshfDefinition;
import io.ddf.engine.window.ExactWindowDefinition;
import io.ddf.engine.window.QueueDefinition;
import io.ddf.engine.window.ShfDefinition;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kind registry: the definition of every filter kind, by the code a file header stores. The embedder API's
 * {@code FilterKind} looks its kinds up here by code; nothing here names the API.
 */
public final class FilterKinds
{
    private static final Map<Integer, KindDefinition> DEFINITIONS = new LinkedHashMap<>();
    private static final QueueDefinition QUEUE = new QueueDefinition(FilterKinds::definition);

    static
    {
        register(new QuotientDefinition(KindCodes.QHT));
        register(new QuotientDefinition(KindCodes.QHTD));
        register(new QuotientDefinition(KindCodes.QQHTD));
        register(new QuotientDefinition(KindCodes.SQF));
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
        register(new AgedCuckooDefinition());
        register(new ExactWindowDefinition());
        register(new ShfDefinition());
        register(new CshfDefinition());
        register(QUEUE);
    }

    private FilterKinds()
    {
    }

    private static void register(final KindDefinition definition)
    {
        if (definition.params().size() > KindDefinition.MAX_SLOTS && definition != QUEUE)
        {
            throw new IllegalStateException(definition.name() + " has more than " + KindDefinition.MAX_SLOTS +
                " parameters");
        }
        if (DEFINITIONS.put(definition.code(), definition) != null)
        {
            throw new IllegalStateException("two definitions of " + definition.name());
        }
    }

    /**
     * @param code a kind's header code.
     * @return its definition, or null when this version knows no kind of that code.
     */
    public static KindDefinition definition(final int code)
    {
        return DEFINITIONS.get(code);
    }

    /** @return the queuing construction, which wraps any other registered kind. */
    public static KindDefinition queue()
    {
        return QUEUE;
    }

    /**
     * @param inner the kind a queue wraps.
     * @param given the parameters a user gave (subfilters, window, and the wrapped kind's own).
     * @return the queue's slot values.
     * @throws IllegalArgumentException saying which parameter is wrong and why.
     */
    public static long[] resolveQueue(final KindDefinition inner, final GivenParameters given)
    {
        return QUEUE.resolve(inner, given);
    }

    /**
     * @param queueSlots a queue's slot values.
     * @return the code of the kind it wraps.
     */
    public static int innerCode(final long[] queueSlots)
    {
        return QueueDefinition.innerCode(queueSlots);
    }

    /** @return every definition, in registration order. */
    public static Collection<KindDefinition> all()
    {
        return Collections.unmodifiableCollection(DEFINITIONS.values());
    }
}
