package io.ddf.ingest.acl;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Failed AUTHs per user: the delay grows with the user's recent failures, whatever the connection, and decays. */
class AuthFailuresTest
{
    @Test
    void delaysGrowPerUserAndDecay()
    {
        final AuthFailures failures = new AuthFailures();
        assertEquals(100, failures.failed("alice", true, 0));
        assertEquals(200, failures.failed("alice", true, 1));
        assertEquals(400, failures.failed("alice", true, 2));
        assertEquals(100, failures.failed("bob", true, 3), "another user has its own score");
        for (int i = 0; i < 10; i++)
        {
            failures.failed("alice", true, 4);
        }
        assertEquals(AuthFailures.LONGEST_DELAY_MILLIS, failures.failed("alice", true, 5), "capped");
        // 14 failures halve every 10 s: after a minute the score is below 1, so the next failure starts over
        assertEquals(100, failures.failed("alice", true, 65_000));
        assertEquals(100, failures.failed("nosuch1", false, 0));
        assertEquals(200, failures.failed("nosuch2", false, 0), "made-up names share one score");
    }
}
