package io.ddf.ingest.acl;

import java.util.HashMap;
import java.util.Map;

/**
 * AUTH throttling per user, beside the per-connection throttle: each failed AUTH against a user adds to that user's
 * score, which halves every {@value #HALF_LIFE_MILLIS} ms, and a failure's reply waits 100 ms doubling with the
 * score up to 2 s. Guesses at one user's password spread over many connections therefore each wait the long delay
 * once the user is under attack (a fresh connection no longer starts at 100 ms), while a right password is never
 * delayed (so an attacker cannot lock the user out). Names that are not users share one score, so a flood of
 * made-up names cannot grow the table, nor tell by its timing which names exist. Thread-safe.
 */
public final class AuthFailures
{
    static final long FIRST_DELAY_MILLIS = 100;
    static final long LONGEST_DELAY_MILLIS = 2000;
    static final long HALF_LIFE_MILLIS = 10_000;
    private static final String STRANGERS = "";

    private final Map<String, Score> scores = new HashMap<>();

    /**
     * @param user      the user named (a real user's name, or anything else).
     * @param isUser    whether that name is a user.
     * @param nowMillis a monotonic clock in milliseconds.
     * @return how long to wait before answering this failure, in milliseconds.
     */
    public synchronized long failed(final String user, final boolean isUser, final long nowMillis)
    {
        final Score score = scores.computeIfAbsent(isUser ? user : STRANGERS, k -> new Score());
        score.decay(nowMillis);
        score.value += 1;
        if (scores.size() > 10_000)
        {
            scores.values().removeIf(s -> s != score && s.decayed(nowMillis) < 0.5);
        }
        final int steps = (int)Math.max(0, Math.round(score.value) - 1);
        return Math.min(LONGEST_DELAY_MILLIS, FIRST_DELAY_MILLIS << Math.min(20, steps));
    }

    private static final class Score
    {
        double value;
        long at;

        void decay(final long now)
        {
            value = decayed(now);
            at = now;
        }

        double decayed(final long now)
        {
            return value * Math.pow(0.5, Math.max(0, now - at) / (double)HALF_LIFE_MILLIS);
        }
    }
}
