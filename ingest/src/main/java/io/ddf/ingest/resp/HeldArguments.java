package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A command's arguments kept past the read that brought them (a command that waits for its filter, the rest of an
 * EXEC behind it): copied out of the read's buffer, which the decoder reuses, and released when run or dropped.
 */
public final class HeldArguments
{
    private HeldArguments()
    {
    }

    /**
     * @param args arguments that live in the read's buffer.
     * @return copies on the heap, the caller's to {@link #release}.
     */
    public static ByteBuf[] copy(final ByteBuf[] args)
    {
        final ByteBuf[] copies = new ByteBuf[args.length];
        for (int i = 0; i < args.length; i++)
        {
            copies[i] = Unpooled.copiedBuffer(args[i]);
        }
        return copies;
    }

    /** @param args arguments held, each released once. */
    public static void release(final ByteBuf[] args)
    {
        for (final ByteBuf arg : args)
        {
            arg.release();
        }
    }
}
