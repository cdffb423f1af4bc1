package io.ddf.ingest.server;

import io.netty.handler.codec.redis.RedisMessage;

/**
 * One reply in a RESP connection's ordered queue: ready now, or waiting for the verdicts of its elements.
 * The replies of single-element commands are shared constants; others are made per command.
 */
final class Pending
{
    /** A reply ready now. */
    static final byte READY = 0;
    /** One integer from one verdict. */
    static final byte ONE = 1;
    /** An array of integers, one per verdict. */
    static final byte MANY = 2;

    /** BF.ADD: 1 when unseen. */
    static final Pending ADD_ONE = new Pending(ONE, null, false, true, 1);
    /** BF.EXISTS: 1 when the filter holds it. */
    static final Pending EXISTS_ONE = new Pending(ONE, null, false, false, 1);

    final byte type;
    final RedisMessage message;
    final boolean closeAfter;
    /** Whether 1 means UNSEEN (adds) rather than DUPLICATE (exists). */
    final boolean add;
    final int count;
    final byte[] values;
    int filled;

    private Pending(final byte type, final RedisMessage message, final boolean closeAfter, final boolean add,
        final int count)
    {
        this.type = type;
        this.message = message;
        this.closeAfter = closeAfter;
        this.add = add;
        this.count = count;
        this.values = type == MANY ? new byte[count] : null;
    }

    /**
     * @param message    the reply.
     * @param closeAfter close the connection once it is written.
     * @return a ready reply.
     */
    static Pending ready(final RedisMessage message, final boolean closeAfter)
    {
        return new Pending(READY, message, closeAfter, false, 0);
    }

    /**
     * @param add   whether 1 means UNSEEN.
     * @param count verdicts it waits for.
     * @return an array reply.
     */
    static Pending many(final boolean add, final int count)
    {
        return new Pending(MANY, null, false, add, count);
    }
}
