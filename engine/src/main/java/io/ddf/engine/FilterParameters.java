package io.ddf.engine;

import io.ddf.engine.internal.FilterFactory;
import io.ddf.engine.internal.MappedFilter;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A filter's resolved parameters: its kind, hash, and one value per parameter of its kind (those a user gave,
 * {@link FilterKind#parameters()}, and those derived from them), as its file header holds them. Two are equal when
 * they make the same filter: same kind, values, hash and seed.
 */
public final class FilterParameters
{
    private final KindDefinition definition;
    private final long[] slots;
    private final HashAlgorithm hashAlgorithm;
    private final long seed;

    FilterParameters(final KindDefinition definition, final long[] slots, final HashAlgorithm hashAlgorithm,
        final long seed)
    {
        this.definition = definition;
        this.slots = slots.clone();
        this.hashAlgorithm = hashAlgorithm;
        this.seed = seed;
    }

    /**
     * Reads and checks the parameters a header holds.
     *
     * @param spec a file header's immutable fields.
     * @param path the file, for messages.
     * @return the parameters.
     * @throws io.ddf.persistence.FilterFileException when the header names an unknown kind or hash, or inconsistent
     *                                                values.
     */
    static FilterParameters ofHeader(final FilterFileSpec spec, final Path path)
    {
        final KindDefinition definition = FilterFactory.definitionOf(spec, path);
        return new FilterParameters(definition, FilterFactory.slotsOf(spec, definition, path),
            HashAlgorithm.fromCode(spec.hashAlgorithm()), spec.seed());
    }

    /**
     * @param filter an opened filter, whose header the factory has read and checked.
     * @return its parameters.
     */
    static FilterParameters of(final MappedFilter filter)
    {
        return new FilterParameters(filter.definition(), filter.slots(), HashAlgorithm.fromCode(filter.hashAlgorithm()),
            filter.seed());
    }

    /** @return the kind. */
    public FilterKind kind()
    {
        return FilterKind.fromCode(definition.code());
    }

    /** @return the kind's definition (the SPI behind the API). */
    KindDefinition definition()
    {
        return definition;
    }

    /** @return the header slot values, one per parameter of the definition. */
    long[] slots()
    {
        return slots.clone();
    }

    /**
     * @param name a parameter name.
     * @return its value as an integer.
     * @throws IllegalArgumentException when the kind has no such parameter.
     */
    public long get(final String name)
    {
        return slots[slot(name)];
    }

    /**
     * @param name a parameter name.
     * @return its value as a real.
     * @throws IllegalArgumentException when the kind has no such parameter.
     */
    public double getDouble(final String name)
    {
        return Double.longBitsToDouble(slots[slot(name)]);
    }

    private int slot(final String name)
    {
        final int slot = definition.slotOf(name);
        if (slot < 0)
        {
            throw new IllegalArgumentException(definition.name() + " has no parameter " + name);
        }
        return slot;
    }

    /** @return the hash algorithm. */
    public HashAlgorithm hashAlgorithm()
    {
        return hashAlgorithm;
    }

    /** @return the hash seed. */
    public long seed()
    {
        return seed;
    }

    /** @return whether the hash is keyed (SipHash with a secret key). */
    public boolean keyed()
    {
        return hashAlgorithm == HashAlgorithm.SIPHASH24_KEYED;
    }

    /** @return bytes of table the filter needs. */
    public long tableBytes()
    {
        return definition.tableBytes(slots);
    }

    /**
     * @return the kind, every parameter by name, derived facts, hash and seed, in a stable order.
     */
    public Map<String, String> toMap()
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("kind", definition.name());
        final List<ParamDef> params = definition.params();
        for (int i = 0; i < params.size(); i++)
        {
            if (params.get(i).shown())
            {
                map.put(params.get(i).name(), params.get(i).format(slots[i]));
            }
        }
        map.putAll(definition.describe(slots));
        map.put("table-bytes", Long.toString(tableBytes()));
        map.put("hash", hashAlgorithm.displayName());
        map.put("seed", keyed() ? "(keyed)" : Long.toString(seed));
        return map;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof FilterParameters p && p.definition.code() == definition.code() &&
            Arrays.equals(p.slots, slots) && p.hashAlgorithm == hashAlgorithm && p.seed == seed;
    }

    @Override
    public int hashCode()
    {
        return (31 * definition.code() + Arrays.hashCode(slots)) * 31 + Long.hashCode(seed);
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, String> e : toMap().entrySet())
        {
            sb.append(sb.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }
}
