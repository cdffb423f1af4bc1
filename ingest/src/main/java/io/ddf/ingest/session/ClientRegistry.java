package io.ddf.ingest.session;

import io.ddf.ingest.dispatch.Session;

import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every open RESP connection, shared by the event loops: admission ({@code --max-clients}, and a tag from the
 * {@link VerdictRouter} for its verdicts), CLIENT LIST's entries by id, the unauthenticated connections' half of the
 * slots ({@link StrangerSlots}), and INFO's counts of connections.
 */
public final class ClientRegistry
{
    private final int maxClients;
    private final VerdictRouter router;
    private final StrangerSlots strangers;
    private final AtomicInteger connected = new AtomicInteger();
    private final LongAdder received = new LongAdder();
    /** CLIENT LIST's entries, by id. */
    private final Map<Long, Session> byId = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param maxClients most RESP clients at once.
     * @param router     gives each connection its verdicts' tag.
     */
    public ClientRegistry(final int maxClients, final VerdictRouter router)
    {
        this.maxClients = maxClients;
        this.router = router;
        this.strangers = new StrangerSlots(maxClients / 2);
    }

    /**
     * A new connection asks to be served.
     *
     * @param verdicts its verdicts, which get their tag here.
     * @param client   its session, which gets its id here.
     * @param remote   the peer's address.
     * @param local    the daemon's address.
     * @return whether it is admitted (else the daemon has no room: its error is then {@code max number of clients}).
     */
    boolean admit(final VerdictRing verdicts, final Session client, final SocketAddress remote,
        final SocketAddress local)
    {
        received.increment();
        if (connected.incrementAndGet() > maxClients)
        {
            connected.decrementAndGet();
            return false;
        }
        final long tag = router.register(verdicts);
        if (tag == 0)
        {
            connected.decrementAndGet();
            return false;
        }
        verdicts.tag(tag);
        client.admit(ids.incrementAndGet(), remote, local);
        byId.put(client.id(), client);
        return true;
    }

    /**
     * @param connection a connection admitted that has not authenticated.
     * @return the oldest stranger, which must close to make room, or null.
     */
    RespConnection stranger(final RespConnection connection)
    {
        return strangers.add(connection);
    }

    /** @param connection authenticated, or closing: no longer a stranger (idempotent). */
    void known(final RespConnection connection)
    {
        strangers.remove(connection);
    }

    /**
     * A connection admitted has closed.
     *
     * @param client     its entry.
     * @param verdicts   its verdicts.
     * @param connection it.
     */
    void leave(final Session client, final VerdictRing verdicts, final RespConnection connection)
    {
        strangers.remove(connection);
        router.unregister(verdicts.tag());
        byId.remove(client.id(), client);
        connected.decrementAndGet();
    }

    /** @return RESP connections open. */
    public int connected()
    {
        return connected.get();
    }

    /** @return connections accepted since the start. */
    public long received()
    {
        return received.sum();
    }

    /**
     * @param id a client id, or -1 for every client.
     * @return CLIENT LIST's text: a line per client, by id.
     */
    public String list(final long id)
    {
        final StringBuilder text = new StringBuilder();
        for (final Session client : byId.values())
        {
            if (id < 0 || client.id() == id)
            {
                text.append(client.describe()).append('\n');
            }
        }
        return text.toString();
    }
}
