package io.ddf.engine.spi;


/**
 * One named parameter of a filter kind, stored in one header parameter slot.
 *
 * @param name        the command-line name, without dashes (e.g. {@code buckets}); the same name means the same
 *                    thing in every kind that takes it.
 * @param type        how the slot's 64 bits are read.
 * @param description one line for {@code --help}.
 * @param option      whether a user may give it; false for values derived from the others (e.g. rows from memory).
 * @param shown       whether {@code FilterParameters.toMap()} (and so {@code ddf info}) shows it; false for raw
 *                    storage slots that another entry already shows by name.
 */
public record ParamDef(String name, Type type, String description, boolean option, boolean shown)
{
    /** How a parameter's slot is read. */
    public enum Type
    {
        /** A signed 64-bit integer. */
        LONG,
        /** A double, stored as its IEEE 754 bits. */
        DOUBLE
    }

    /**
     * @param name        the name.
     * @param description one line.
     * @return a user-settable integer parameter.
     */
    public static ParamDef longOption(final String name, final String description)
    {
        return new ParamDef(name, Type.LONG, description, true, true);
    }

    /**
     * @param name        the name.
     * @param description one line.
     * @return a user-settable real parameter.
     */
    public static ParamDef doubleOption(final String name, final String description)
    {
        return new ParamDef(name, Type.DOUBLE, description, true, true);
    }

    /**
     * @param name        the name.
     * @param description one line.
     * @return an integer derived from the other parameters.
     */
    public static ParamDef derived(final String name, final String description)
    {
        return new ParamDef(name, Type.LONG, description, false, true);
    }

    /**
     * @param name        the name.
     * @param description one line.
     * @return a raw storage slot, not shown by name (its meaning is shown by other entries).
     */
    public static ParamDef internal(final String name, final String description)
    {
        return new ParamDef(name, Type.LONG, description, false, false);
    }

    /**
     * @param slot the slot's bits.
     * @return the value as text.
     */
    public String format(final long slot)
    {
        return type == Type.DOUBLE ? Double.toString(Double.longBitsToDouble(slot)) : Long.toString(slot);
    }
}
