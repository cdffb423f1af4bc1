package io.ddf.ingest.log;

/**
 * A failure as one line of text, for a log line or an error reply: RESP error replies and the daemon's log lines
 * must not break across lines, and exception messages may (a file's path, a nested cause).
 */
public final class OneLine
{
    private OneLine()
    {
    }

    /**
     * @param e a failure.
     * @return its message (its class's simple name when it has none), stripped, each run of line breaks with the
     *         blanks around it replaced by "; ".
     */
    public static String of(final Throwable e)
    {
        final String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }
}
