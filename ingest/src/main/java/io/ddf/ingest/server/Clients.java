package io.ddf.ingest.server;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/** Every open RESP connection's {@link ClientState}, by id, for CLIENT LIST; shared by the event loops. */
final class Clients
{
    private final Map<Long, ClientState> byId = new ConcurrentSkipListMap<>();

    /** @param client a connection now open. */
    void add(final ClientState client)
    {
        byId.put(client.id(), client);
    }

    /** @param client a connection now closed. */
    void remove(final ClientState client)
    {
        byId.remove(client.id(), client);
    }

    /**
     * @param id a client id, or -1 for every client.
     * @return CLIENT LIST's text: a line per client, by id.
     */
    String list(final long id)
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
