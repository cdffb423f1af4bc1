package io.ddf.engine;

/**
 * A parameter given to a {@link FilterBuilder} that its kind does not take, named as the builder names it:
 * {@code param("no-such") is not a parameter of qht: it takes .rows(n), .buckets(n), ...}, and for a window on a
 * kind that has none, that {@code .window(w)} needs {@code .subfilters(L)}. {@link #commandLineMessage()} says the
 * same with the command line's option names, for the tools that build filters from options.
 */
public final class UnknownParameterException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** The parameter given, by its name. */
    private final String parameter;
    /** The same refusal in the command line's words. */
    private final String commandLineMessage;

    UnknownParameterException(final String message, final String parameter, final String commandLineMessage,
        final Throwable cause)
    {
        super(message, cause);
        this.parameter = parameter;
        this.commandLineMessage = commandLineMessage;
    }

    /** @return the parameter given, by its name ({@code "no-such"}, {@code "window"}). */
    public String parameter()
    {
        return parameter;
    }

    /** @return the same refusal in the command line's words: {@code --no-such is not a parameter of qht (...)}. */
    public String commandLineMessage()
    {
        return commandLineMessage;
    }
}
