package io.ddf.ingest.server;

import io.netty.handler.codec.redis.RedisMessage;

/**
 * One entry of a RESP connection's ordered reply queue: a reply ready now ({@link #READY}), one waiting for the
 * verdict of its element ({@link #ONE}) or the verdicts of its elements ({@link #MANY}), or the marker that makes the
 * next replies one array ({@link #GROUP}, EXEC). The one-verdict entries are shared constants; others are made per
 * command.
 */
final class Pending
{
    /** A reply ready now. */
    static final byte READY = 0;
    /** One integer from one verdict. */
    static final byte ONE = 1;
    /** An array of integers, one per verdict. */
    static final byte MANY = 2;
    /** Not a reply: the next {@link #count} replies go out as one array (EXEC). */
    static final byte GROUP = 3;

    /** BF.ADD: 1 when unseen. */
    private static final Pending ADD_ONE = new Pending(ONE, null, false, true, 1, false);
    /** BF.EXISTS: 1 when the filter holds it. */
    private static final Pending EXISTS_ONE = new Pending(ONE, null, false, false, 1, false);
    /** BF.ADD in RESP3: true when unseen. */
    private static final Pending ADD_ONE_RESP3 = new Pending(ONE, null, false, true, 1, true);
    /** BF.EXISTS in RESP3: true when the filter holds it. */
    private static final Pending EXISTS_ONE_RESP3 = new Pending(ONE, null, false, false, 1, true);

    final byte type;
    final RedisMessage message;
    final boolean closeAfter;
    /** Whether 1 means UNSEEN (adds) rather than DUPLICATE (exists). */
    final boolean add;
    final int count;
    final byte[] values;
    /** Verdicts as RESP3 booleans (the connection said HELLO 3 before the command), else integers. */
    final boolean resp3;
    int filled;

    private Pending(final byte type, final RedisMessage message, final boolean closeAfter, final boolean add,
        final int count, final boolean resp3)
    {
        this.type = type;
        this.message = message;
        this.closeAfter = closeAfter;
        this.add = add;
        this.count = count;
        this.values = type == MANY ? new byte[count] : null;
        this.resp3 = resp3;
    }

    /**
     * @param session the connection, whose protocol the reply takes.
     * @param add     whether true means UNSEEN (BF.ADD) rather than DUPLICATE (BF.EXISTS).
     * @return a one-verdict reply.
     */
    static Pending one(final Session session, final boolean add)
    {
        final boolean resp3 = session.client().resp3();
        return add ? resp3 ? ADD_ONE_RESP3 : ADD_ONE : resp3 ? EXISTS_ONE_RESP3 : EXISTS_ONE;
    }

    /**
     * @param session the connection, whose protocol the reply takes.
     * @param add     whether true means UNSEEN.
     * @param count   verdicts it waits for.
     * @return an array reply.
     */
    static Pending many(final Session session, final boolean add, final int count)
    {
        return new Pending(MANY, null, false, add, count, session.client().resp3());
    }

    /**
     * @param count replies that go out as one array.
     * @return the marker that groups them.
     */
    static Pending group(final int count)
    {
        return new Pending(GROUP, null, false, false, count, false);
    }

    /**
     * @param message    the reply.
     * @param closeAfter close the connection once it is written.
     * @return a ready reply.
     */
    static Pending ready(final RedisMessage message, final boolean closeAfter)
    {
        return new Pending(READY, message, closeAfter, false, 0, false);
    }
}
