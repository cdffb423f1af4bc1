package io.ddf.engine.spi;

import java.util.List;

/**
 * A parameter given to a kind that does not take it. The message names it as the command lines do
 * ({@code --name is not a parameter of qht (it takes --rows, ...)}); the fields let the embedding API name it as its
 * builder does ({@code param("name")}, {@code .rows(n)}).
 */
public final class NotAParameterException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** The parameter given. */
    private final String parameter;
    /** The kind's name. */
    private final String kind;
    /** Whether the parameters are those of the queuing construction over the kind (a window and subfilters). */
    private final boolean queue;
    /** The parameters it takes, by name, in order. */
    private final List<String> takes;

    /**
     * @param parameter the parameter given.
     * @param kind      the kind's name.
     * @param queue     whether the parameters are those of the queuing construction over the kind.
     * @param takes     the parameters it takes, by name.
     */
    public NotAParameterException(final String parameter, final String kind, final boolean queue,
        final List<String> takes)
    {
        super("--" + parameter + " is not a parameter of " + (queue ? "the queuing construction over " : "") + kind +
            " (it takes " + (takes.isEmpty() ? "none" : "--" + String.join(", --", takes)) + ")");
        this.parameter = parameter;
        this.kind = kind;
        this.queue = queue;
        this.takes = List.copyOf(takes);
    }

    /** @return the parameter given. */
    public String parameter()
    {
        return parameter;
    }

    /** @return the kind's name. */
    public String kind()
    {
        return kind;
    }

    /** @return whether the parameters are those of the queuing construction over the kind. */
    public boolean queue()
    {
        return queue;
    }

    /** @return the parameters it takes, by name, in order. */
    public List<String> takes()
    {
        return takes;
    }
}
