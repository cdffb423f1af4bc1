package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.Arrays;

/**
 * Reused argument buffers for commands of at most {@value #MAX_ARGS} arguments of at most {@value #MAX_BYTES}
 * bytes each (BF.ADD, BF.EXISTS, CF.ADDNX, and BF.MADD / BF.MEXISTS of a few hundred items), so that decoding one
 * allocates nothing: the allocation profile of {@code BF.ADD -P 16} had the decoder's slices (one per argument) at
 * 53 % of the bytes allocated per command and its argument array at 11 %. The bytes are copied (a few dozen,
 * cheaper than a slice object), so the input is not shared either. A slice per item also cost BF.MADD of 100 a
 * pooled slice taken and recycled and two atomic updates of the input's count per item (async-profiler:
 * {@code PooledSlicedByteBuf.newInstance0}, {@code ReferenceCountUpdater}); the buffers of a large command are
 * made on first use, so a connection that sends only small commands holds only small ones.
 *
 * <p>Why reuse is safe: the command table's contract is that the arguments are released when the command returns
 * and that whatever must outlive it is copied (parked commands, MULTI's queue, a retry) or retained (ECHO's
 * reply). Each buffer is handed over retained once and released by the connection, so it is back to one reference
 * when the next command comes; a buffer still referenced then (retained by a reply) is left to its holder and
 * replaced. The array is reused only when its receiver has released every buffer in it: nothing keeps an
 * array past its command (its slices would have been released and unreadable, before this class existed too).
 * Owned by one decoder, on its event loop.
 */
final class ArgumentBuffers
{
    /**
     * Most arguments of a command decoded into reused buffers: a connection then holds at most this many buffers of
     * {@link #MAX_BYTES} (about 30 KB) for as long as it is open, whatever it sends; a larger command is sliced.
     */
    static final int MAX_ARGS = 256;
    /** Argument counts up to this have a reused array each; a larger command reuses the one array of its size. */
    private static final int SMALL_ARGS = 8;
    /** Longest argument copied into a reused buffer. */
    static final int MAX_BYTES = 64;

    private final ByteBuf[][] arrays = new ByteBuf[SMALL_ARGS + 1][];
    /** The array of the last command of more than {@link #SMALL_ARGS} arguments, or null. */
    private ByteBuf[] large;
    private ByteBuf[] buffers = new ByteBuf[SMALL_ARGS];

    /**
     * @param in    the input.
     * @param base  the offset the spans count from.
     * @param spans offset and length of each argument, in pairs.
     * @param argc  the number of arguments.
     * @return the arguments in reused buffers (each retained once for the receiver), or null when the command is
     *     too large to: the caller slices it as before.
     */
    ByteBuf[] copy(final ByteBuf in, final int base, final int[] spans, final int argc)
    {
        if (argc > MAX_ARGS)
        {
            return null;
        }
        for (int i = 0; i < argc; i++)
        {
            if (spans[2 * i + 1] > MAX_BYTES)
            {
                return null;
            }
        }
        ByteBuf[] args = argc <= SMALL_ARGS ? arrays[argc] : large;
        if (args == null || args.length != argc || !released(args))
        {
            args = new ByteBuf[argc];
            if (argc <= SMALL_ARGS)
            {
                arrays[argc] = args;
            }
            else
            {
                large = args;
            }
        }
        if (argc > buffers.length)
        {
            buffers = Arrays.copyOf(buffers, Math.max(argc, 2 * buffers.length));
        }
        for (int i = 0; i < argc; i++)
        {
            ByteBuf buffer = buffers[i];
            if (buffer == null || buffer.refCnt() != 1)
            {
                if (buffer != null)
                {
                    buffer.release(); // our reference; whoever retained it keeps it alive
                }
                buffer = Unpooled.buffer(MAX_BYTES, MAX_BYTES);
                buffers[i] = buffer;
            }
            buffer.clear();
            in.getBytes(base + spans[2 * i], buffer, spans[2 * i + 1]);
            args[i] = buffer.retain();
        }
        return args;
    }

    /**
     * @param args an array handed out before.
     * @return whether its receiver is done with it: it still holds our buffers and each is back to our one
     *     reference (a receiver that queues commands, as a test's channel does, gets a new array meanwhile).
     */
    private boolean released(final ByteBuf[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            if (args[i] != buffers[i] || buffers[i].refCnt() != 1)
            {
                return false;
            }
        }
        return true;
    }

    /** Releases the buffers (the connection has closed). */
    void release()
    {
        for (int i = 0; i < buffers.length; i++)
        {
            if (buffers[i] != null)
            {
                buffers[i].release();
                buffers[i] = null;
            }
        }
    }
}
