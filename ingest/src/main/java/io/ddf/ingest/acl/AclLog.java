package io.ddf.ingest.acl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

/**
 * ACL LOG: the latest refusals (a command, a key, a failed AUTH), newest first, at most {@value #MAX_ENTRIES}
 * (Redis's {@code acllog-max-len} default). A refusal like one of the ten newest entries (same reason, context,
 * object and user, within a minute) bumps that entry's count instead of adding one, as Redis does. Thread-safe.
 */
public final class AclLog
{
    /** Most entries kept. */
    public static final int MAX_ENTRIES = 128;
    private static final long GROUPING_MILLIS = 60_000;
    private static final int GROUPING_SCAN = 10;

    private final LinkedList<Entry> entries = new LinkedList<>();
    private long nextId;

    /**
     * @param reason     {@code command}, {@code key} or {@code auth}.
     * @param context    {@code toplevel} or {@code multi}.
     * @param object     the command, key, or {@code AUTH}.
     * @param user       the user refused (for AUTH, the one named).
     * @param clientInfo the client's CLIENT INFO line.
     * @param nowMillis  the wall clock.
     */
    public synchronized void record(final String reason, final String context, final String object,
        final String user, final String clientInfo, final long nowMillis)
    {
        int scanned = 0;
        for (final var it = entries.listIterator(); it.hasNext() && scanned < GROUPING_SCAN; scanned++)
        {
            final Entry e = it.next();
            if (e.reason.equals(reason) && e.context.equals(context) && e.object.equals(object) &&
                e.user.equals(user) && Math.abs(nowMillis - e.updated) <= GROUPING_MILLIS)
            {
                it.remove();
                e.count++;
                e.updated = nowMillis;
                e.clientInfo = clientInfo;
                entries.addFirst(e);
                return;
            }
        }
        entries.addFirst(new Entry(nextId++, reason, context, object, user, clientInfo, nowMillis));
        while (entries.size() > MAX_ENTRIES)
        {
            entries.removeLast();
        }
    }

    /** Empties the log (ACL LOG RESET). */
    public synchronized void reset()
    {
        entries.clear();
    }

    /**
     * @param count     most entries to give.
     * @param nowMillis the wall clock, for {@code age-seconds}.
     * @return the newest entries first, each with Redis's fields in Redis's order.
     */
    public synchronized List<Map<String, Object>> newest(final int count, final long nowMillis)
    {
        final List<Map<String, Object>> out = new ArrayList<>();
        for (final Entry e : entries)
        {
            if (out.size() >= count)
            {
                break;
            }
            final Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("count", e.count);
            fields.put("reason", e.reason);
            fields.put("context", e.context);
            fields.put("object", e.object);
            fields.put("username", e.user);
            fields.put("age-seconds", (nowMillis - e.updated) / 1000.0);
            fields.put("client-info", e.clientInfo);
            fields.put("entry-id", e.id);
            fields.put("timestamp-created", e.created);
            fields.put("timestamp-last-updated", e.updated);
            out.add(fields);
        }
        return out;
    }

    private static final class Entry
    {
        final long id;
        final String reason;
        final String context;
        final String object;
        final String user;
        final long created;
        String clientInfo;
        long updated;
        long count = 1;

        Entry(final long id, final String reason, final String context, final String object, final String user,
            final String clientInfo, final long now)
        {
            this.id = id;
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.user = user;
            this.clientInfo = clientInfo;
            this.created = now;
            this.updated = now;
        }
    }
}
