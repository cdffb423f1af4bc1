package io.ddf.ingest.session;

/**
 * How a connection's failed AUTHs are answered: each failure waits longer before its error reply (so guessing
 * passwords on one connection goes at a few tries a second at most, not 87,000), and after
 * {@value #MOST_FAILURES} failures the connection is closed. The connection's reading pauses while the reply waits,
 * so pipelined guesses wait too.
 */
public final class AuthThrottle
{
    /** Failures a connection may make; the next closes it. */
    public static final int MOST_FAILURES = 5;
    static final long FIRST_DELAY_MILLIS = 100;
    static final long LONGEST_DELAY_MILLIS = 2000;

    private int failures;

    /** @return the delay before answering the failure just made, in milliseconds. */
    long failed()
    {
        failures++;
        return Math.min(LONGEST_DELAY_MILLIS, FIRST_DELAY_MILLIS << Math.min(20, failures - 1));
    }

    /** @return whether the connection has used up its tries and must be closed. */
    boolean exhausted()
    {
        return failures >= MOST_FAILURES;
    }

    /** @return failures so far. */
    int failures()
    {
        return failures;
    }
}
