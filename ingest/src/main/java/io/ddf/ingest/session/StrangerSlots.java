package io.ddf.ingest.session;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The client slots connections that have not authenticated may hold: half of {@code --max-clients}. When they
 * are all taken, the oldest stranger gives way to the newcomer (it has had the longest to AUTH), so idle
 * unauthenticated connections cannot keep an authenticated client out — refusing the newcomer instead would
 * refuse the client too, since every client is a stranger until its AUTH.
 */
final class StrangerSlots
{
    private final int limit;
    private final LinkedHashSet<RespConnection> strangers = new LinkedHashSet<>();

    /** @param limit most unauthenticated connections at once. */
    StrangerSlots(final int limit)
    {
        this.limit = Math.max(1, limit);
    }

    /**
     * @param connection a new connection, not authenticated.
     * @return the oldest stranger, to be closed to make room, or null.
     */
    synchronized RespConnection add(final RespConnection connection)
    {
        strangers.add(connection);
        if (strangers.size() <= limit)
        {
            return null;
        }
        final Iterator<RespConnection> oldest = strangers.iterator();
        final RespConnection evicted = oldest.next();
        oldest.remove();
        return evicted;
    }

    /** @param connection authenticated or closed. */
    synchronized void remove(final RespConnection connection)
    {
        strangers.remove(connection);
    }
}
