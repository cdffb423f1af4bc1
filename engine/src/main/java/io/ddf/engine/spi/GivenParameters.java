package io.ddf.engine.spi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The parameters a user gave, by name, before a kind's definition resolves them into header slots. */
public final class GivenParameters
{
    private final Map<String, Number> values = new LinkedHashMap<>();

    /**
     * @param name  parameter name.
     * @param value integer value.
     */
    public void put(final String name, final long value)
    {
        values.put(name, value);
    }

    /**
     * @param name  parameter name.
     * @param value real value.
     */
    public void put(final String name, final double value)
    {
        values.put(name, value);
    }

    /**
     * @param name parameter name.
     * @return whether it was given.
     */
    public boolean has(final String name)
    {
        return values.containsKey(name);
    }

    /**
     * @param name         parameter name.
     * @param defaultValue the value when not given.
     * @return the value as an integer.
     * @throws IllegalArgumentException when given as a non-integer.
     */
    public long getLong(final String name, final long defaultValue)
    {
        final Number value = values.get(name);
        if (value == null)
        {
            return defaultValue;
        }
        if (value instanceof Double)
        {
            final double d = value.doubleValue();
            if (d != Math.rint(d))
            {
                throw new IllegalArgumentException(name + " must be an integer, got " + d);
            }
            return (long)d;
        }
        return value.longValue();
    }

    /**
     * @param name         parameter name.
     * @param defaultValue the value when not given.
     * @return the value as a real.
     */
    public double getDouble(final String name, final double defaultValue)
    {
        final Number value = values.get(name);
        return value == null ? defaultValue : value.doubleValue();
    }

    /**
     * @param name parameter name.
     * @return the value as given, or null.
     */
    public Number get(final String name)
    {
        return values.get(name);
    }

    /** @return the names given. */
    public Set<String> names()
    {
        return values.keySet();
    }

    /**
     * @param name parameter name.
     */
    public void remove(final String name)
    {
        values.remove(name);
    }
}
