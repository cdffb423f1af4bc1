package io.ddf.engine;

/**
 * A parameter a user may give a filter kind (what a command line offers as {@code --name}); the values derived
 * from them are shown by {@link FilterParameters#toMap()}.
 *
 * @param name        the name, without dashes (e.g. {@code buckets}); the same name means the same thing in every
 *                    kind that takes it.
 * @param real        whether the value is a real number ({@link FilterBuilder#param(String, double)}); otherwise
 *                    an integer ({@link FilterBuilder#param(String, long)}).
 * @param description one line for {@code --help}.
 */
public record KindParameter(String name, boolean real, String description)
{
    /**
     * @param value the value as {@link FilterParameters#get(String)} returns it (a real's IEEE 754 bits).
     * @return the value as text.
     */
    public String format(final long value)
    {
        return real ? Double.toString(Double.longBitsToDouble(value)) : Long.toString(value);
    }
}
