package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;

/**
 * The {@link RespDecoder}'s seam for commands whose arguments may pass {@code --max-bulk-bytes} (RedisBloom's
 * SCANDUMP chunks run to megabytes): asked only for an argument longer than that limit, with the command's name,
 * which has arrived by then. The default allows nothing more; a command declares more with its
 * {@code largeArguments}. Still at most {@code --max-request-bytes} per command, and the input budget holds it while
 * it arrives.
 */
@FunctionalInterface
public interface LargeArguments
{
    /** Nothing past {@code --max-bulk-bytes}. */
    LargeArguments NONE = (input, offset, length) -> 0;

    /**
     * @param input  the input holding the command's name.
     * @param offset index of the name's first byte.
     * @param length the name's length.
     * @return the longest argument that command takes, or 0 for the daemon's {@code --max-bulk-bytes}.
     */
    long limit(ByteBuf input, int offset, int length);
}
