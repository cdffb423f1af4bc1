package io.ddf.engine;

import io.ddf.engine.spi.KindDefinition;

/**
 * For tests of the layers below the API, outside this package: the SPI behind {@link FilterKind} and
 * {@link FilterParameters}, which the API keeps package-private (an embedder never needs it).
 */
public final class SpiAccess
{
    private SpiAccess()
    {
    }

    /**
     * @param kind a kind.
     * @return its definition.
     */
    public static KindDefinition definition(final FilterKind kind)
    {
        return kind.definition();
    }

    /**
     * @param parameters resolved parameters.
     * @return their kind's definition.
     */
    public static KindDefinition definition(final FilterParameters parameters)
    {
        return parameters.definition();
    }

    /**
     * @param parameters resolved parameters.
     * @return their header slot values, one per parameter of the definition.
     */
    public static long[] slots(final FilterParameters parameters)
    {
        return parameters.slots();
    }
}
