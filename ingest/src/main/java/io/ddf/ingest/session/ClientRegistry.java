package io.ddf.ingest.session;

import io.ddf.ingest.dispatch.ClientState;
import io.ddf.ingest.dispatch.ThreadCounters;

import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every open RESP connection, shared by the event loops: admission ({@code --max-clients}, and a tag from the
 * {@link VerdictRouter} for its verdicts), CLIENT LIST's entries by id, the unauthenticated connections' half of the
 * slots ({@link StrangerSlots}), and INFO's counts.
 */
public final class ClientRegistry
{
    private final int maxClients;
    private final VerdictRouter router;
    private final StrangerSlots strangers;
    private final AtomicInteger connected = new AtomicInteger();
    private final LongAdder received = new LongAdder();
    /** Commands read, per event loop without a locked instruction. */
    private final ThreadCounters commands = new ThreadCounters(1);
    private final Map<Long, ClientState> byId = new ConcurrentSkipListMap<>();
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
     * @param remote   the peer's address.
     * @param local    the daemon's address.
     * @return its entry, or null when the daemon has no room (its error is then {@code max number of clients}).
     */
    ClientState admit(final VerdictRing verdicts, final SocketAddress remote, final SocketAddress local)
    {
        received.increment();
        if (connected.incrementAndGet() > maxClients)
        {
            connected.decrementAndGet();
            return null;
        }
        final long tag = router.register(verdicts);
        if (tag == 0)
        {
            connected.decrementAndGet();
            return null;
        }
        verdicts.tag(tag);
        final ClientState client = new ClientState(ids.incrementAndGet(), remote, local);
        byId.put(client.id(), client);
        return client;
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
    void leave(final ClientState client, final VerdictRing verdicts, final RespConnection connection)
    {
        strangers.remove(connection);
        router.unregister(verdicts.tag());
        byId.remove(client.id(), client);
        connected.decrementAndGet();
    }

    /** A command was read (INFO's total_commands_processed). */
    void commandRead()
    {
        ThreadCounters.add(commands.cells(), 0, 1);
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

    /** @return commands read since the start. */
    public long commandsProcessed()
    {
        return commands.sum(0);
    }

    /**
     * @param id a client id, or -1 for every client.
     * @return CLIENT LIST's text: a line per client, by id.
     */
    public String list(final long id)
    {
        final StringBuilder text = new StringBuilder();
        for (final ClientState client : byId.values())
        {
            if (id < 0 || client.id() == id)
            {
                text.append(client.describe()).append('\n');
            }
        }
        return text.toString();
    }
}
